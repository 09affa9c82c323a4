import Foundation
import LumenModel
import Testing

@testable import LumenStore

/// The synchronous listing reader a crawl thread uses: the same listings as the async API,
/// and every commit of the writer seen by the next read.
@Suite struct ListingReaderTests {
  @Test(arguments: ["/home/u", "/home/u/", "/home/u/src", "/home/u/none", "/"])
  func listsWhatTheAsyncAPIDoes(folder: String) async throws {
    let storage = try TemporaryFolder()
    let index = try makeIndex(storage)
    var records = [
      FileIdentityTests.record("/home/u", inode: 1, directory: true),
      FileIdentityTests.record("/home/u/a.txt", inode: 2),
      FileIdentityTests.record("/home/u/src", inode: 3, directory: true),
    ]
    for number in 0..<30 {
      records.append(
        FileIdentityTests.record("/home/u/src/f\(number).c", inode: 10 + UInt64(number)))
    }
    try await index.indexFiles(records)
    let reader = try index.makeListingReader()
    let expected = try await index.children(ofDirectory: folder)
    #expect(try reader.children(ofDirectory: folder) == expected)
  }

  @Test func seesEachCommitOfTheWriter() async throws {
    let storage = try TemporaryFolder()
    let index = try makeIndex(storage)
    try await index.indexFiles([FileIdentityTests.record("/d/one", inode: 1)])
    let reader = try index.makeListingReader()
    #expect(try reader.children(ofDirectory: "/d").map(\.name) == ["one"])
    try await index.indexFiles([FileIdentityTests.record("/d/two", inode: 2)])
    #expect(try reader.children(ofDirectory: "/d").map(\.name) == ["one", "two"])
    try await index.deleteFiles(underPath: "/d/one")
    #expect(try reader.children(ofDirectory: "/d").map(\.name) == ["two"])
  }
}
