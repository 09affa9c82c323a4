import Foundation
import Testing

/// What an extraction worker can still do once it has confined itself, tried by the worker
/// program itself (`lumen __extract-worker --probe DIR` applies exactly the confinement a
/// worker applies, then attempts what it must not be able to do).
@Suite struct ConfinementTests {
  @Test func aWorkerCannotOpenASocketNorWriteAFile() async throws {
    let lumen = try LumenProcess()
    defer { lumen.cleanUp() }
    let folder = lumen.home.appendingPathComponent("probe").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let result = try await lumen.run(["__extract-worker", "--probe", folder])
    #expect(result.status == 0, "\(result.stderr)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    let attempts = try #require(object["attempts"] as? [String: String])
    let confinement = try #require(object["confinement"] as? [String: Any])

    #expect(attempts["socket"] == "Operation not permitted", "TCP/IP socket")
    #expect(attempts["unixSocket"] == "Operation not permitted", "Unix socket")
    #expect(attempts["create"] == "Permission denied", "creating a file")
    #expect(attempts["writeExisting"] == "Permission denied", "opening a file for writing")
    #expect(attempts["unlink"] == "Permission denied", "removing a file")
    #expect(attempts["mkdir"] == "Permission denied", "creating a folder")
    #expect(attempts["read"] == "ok", "reading, which extraction needs")
    #expect(attempts["list"] == "ok", "listing a folder")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder)
    #expect(names == ["probe-readable"], "nothing was created, nothing removed")

    #expect(confinement["noNewPrivileges"] as? Bool == true)
    #expect(confinement["seccomp"] as? String == "on")
    #expect(confinement["threadsAtConfinement"] as? Int == 1, "Landlock binds every thread")
    let abi = confinement["landlockABI"] as? Int ?? 0
    // The kernel decides whether Landlock exists; when it does, it must be on.
    #expect(abi == 0 || confinement["landlock"] as? String == "read-only", "ABI \(abi)")
    let baseline = confinement["baselineAddressSpace"] as? Int ?? 0
    let limit = confinement["addressSpaceLimit"] as? Int ?? 0
    #expect(baseline > 0 && limit - baseline == 512 << 20, "RLIMIT_AS = baseline + 512 MiB")
  }

  @Test func theWorkerModeIsNotOffered() async throws {
    let lumen = try LumenProcess()
    defer { lumen.cleanUp() }
    let help = try await lumen.run(["--help"])
    #expect(!help.output.contains("__extract-worker"))
    // Started by hand, a worker with nothing on its input ends at once and cleanly.
    let idle = try await lumen.run(["__extract-worker"], stdin: Data())
    #expect(idle.status == 0)
    // Garbage instead of frames: an error exit, never a crash.
    let garbage = try await lumen.run(["__extract-worker"], stdin: Data("hello worker".utf8))
    #expect(garbage.status == 70)
    #expect(!garbage.signaled)
  }
}
