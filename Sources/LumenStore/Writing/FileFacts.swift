/// What `indexFiles` stores beside a file item's attributes.
struct FileFacts: Sendable, Equatable {
  var stamp: FileStamp
  var isDirectory: Bool
  var extractor: ExtractorStamp?
}
