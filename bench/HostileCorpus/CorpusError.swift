/// Why the corpus could not be written: the call and the path.
struct CorpusError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
