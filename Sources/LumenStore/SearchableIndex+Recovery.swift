import Foundation

extension SearchableIndex {
  /// An unusable index file that was moved aside so a new index could take its place.
  public struct MovedAside: Sendable, Equatable {
    /// What was wrong with it.
    public let reason: String
    /// Where it is now.
    public let path: String
  }

  /// Opens the index for writing; if the file is damaged or another program's database
  /// (`SearchableIndexError.corrupt`), moves it aside (`IndexLocation.movedAside`) and opens a
  /// fresh index in its place, which the next crawl fills. The caller reports the move. A
  /// read-only open never moves anything: a reader reports the damage and leaves it to a writer.
  public static func openRecoveringCorruption(
    location: IndexLocation, options: Options = Options(), now: Date = Date()
  ) throws -> (index: SearchableIndex, movedAside: MovedAside?) {
    do {
      return (try SearchableIndex(location: location, options: options), nil)
    } catch SearchableIndexError.corrupt(_, let reason) where !options.readOnly {
      let target = try location.movedAside(at: now)
      return (
        try SearchableIndex(location: location, options: options),
        MovedAside(reason: reason, path: target)
      )
    }
  }
}
