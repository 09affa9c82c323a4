import Foundation
import Glibc
import Testing

@testable import LumenCrawl

@Suite("Domains, the summary and the progress line")
struct CrawlReportingTests {
  @Test(arguments: ["/home/ann", "/home/ann/my.photos", "/srv/100%/x.y.z", "/", "/tmp/é.d"])
  func fileDomainsRoundTripAndHaveOneDot(root: String) {
    let domain = FileDomain.identifier(forRoot: root)
    #expect(domain.hasPrefix("files."))
    #expect(domain.filter { $0 == "." }.count == 1, "a leaf: no subdomain of another root")
    #expect(FileDomain.root(fromIdentifier: domain) == root)
  }

  @Test func domainsOfDifferentRootsNeverNest() {
    let ann = FileDomain.identifier(forRoot: "/home/ann")
    let annSub = FileDomain.identifier(forRoot: "/home/ann.old")
    #expect(!annSub.hasPrefix(ann + "."))
    #expect(FileDomain.root(fromIdentifier: "mail.inbox") == nil)
    #expect(FileDomain.root(fromIdentifier: "files.a.b") == nil)
  }

  @Test func theSummaryIsOneJSONObjectWithTheDocumentedKeys() throws {
    var summary = CrawlSummary()
    summary.added = 3
    summary.failed = 1
    summary.seconds = 0.5
    summary.errors = [.init(path: "/x/pipe", reason: "not a regular file (fifo)")]
    let json = summary.json()
    #expect(!json.contains("\n"))
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    for key in ["added", "updated", "moved", "removed", "unchanged", "failed", "seconds"] {
      #expect(object[key] != nil, "\(key)")
    }
    #expect(object["added"] as? Int == 3)
    #expect(json.contains("\"path\":\"/x/pipe\""))
  }

  @Test func theProgressLineFitsTheTerminal() {
    let snapshot = ProgressReporter.Snapshot(
      filesSeen: 12_345, errors: 2, currentFolder: "/home/ann/Projects/very/long/folder/name",
      elapsedSeconds: 2)
    let wide = ProgressReporter.line(for: snapshot, width: 120)
    #expect(
      wide == "Indexing: 12,345 files, 6,172/s, 2 errors  /home/ann/Projects/very/long/folder/name")
    let narrow = ProgressReporter.line(for: snapshot, width: 60)
    #expect(narrow.count == 60)
    #expect(narrow.hasSuffix("folder/name"))
    #expect(narrow.contains("…"))
    #expect(ProgressReporter.line(for: snapshot, width: 20).count == 20)
  }

  @Test func withoutATerminalThereIsNoProgressReporter() throws {
    // The test runner's standard error is a pipe or a file, never a terminal here.
    #expect(isatty(STDERR_FILENO) == 1 || ProgressReporter.forStandardError() == nil)
  }
}
