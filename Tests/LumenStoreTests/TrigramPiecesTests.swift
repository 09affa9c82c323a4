import LumenModel
import LumenQuery
import Testing

@testable import LumenStore

/// Substrings are looked up as sets of trigrams (the trigram table keeps no positions): a few
/// spread over each run, every candidate then checked exactly.
@Suite struct TrigramPiecesTests {
  @Test func aLongRunIsLookedUpBySixTrigramsFromItsFirstToItsLast() {
    let trigrams = FullTextPieces.trigrams(of: "invoice-48213.pdf")
    #expect(trigrams.count == 15)
    let chosen = FullTextPieces.spread(trigrams)
    #expect(chosen.count == FullTextPieces.maximumTrigrams)
    #expect(chosen.first == "inv" && chosen.last == "pdf")
    #expect(FullTextPieces.spread(["abc", "bcd"]) == ["abc", "bcd"])
    #expect(FullTextPieces.trigrams(of: "ab").isEmpty)
    #expect(FullTextPieces.trigrams(of: "zürich") == ["zür", "üri", "ric", "ich"])
  }

  @Test func namesThatShareTheChosenTrigramsAreTellApartByTheExactCheck() async throws {
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder)
    // Each holds every one of the six trigrams chosen for the first name, in another order.
    let names = ["Invoice-48213.pdf", "Invoice-48213.pdf.bak", "pdf 13.8 482 e-4 oic inv.txt"]
    try await index.indexSearchableItems(names.map { fileItem("/d/\($0)") })
    #expect(
      try await identifiers(index, "fileName == 'Invoice-48213.pdf'") == ["/d/Invoice-48213.pdf"])
    #expect(
      try await identifiers(index, "fileName == '*Invoice-48213.pdf*'")
        == ["/d/Invoice-48213.pdf", "/d/Invoice-48213.pdf.bak"])
    #expect(
      try await identifiers(index, "fileName == '*e-4 oic*'c") == [
        "/d/pdf 13.8 482 e-4 oic inv.txt"
      ])
  }
}
