import Foundation
import LumenModel

/// What the zip-based document formats have in common, before it becomes attributes: each
/// format reader fills the fields its metadata part carries.
struct DocumentProperties {
  var title: String?
  var authors: [String] = []
  var subject: String?
  var contentDescription: String?
  var keywords: [String] = []
  var languages: [String] = []
  /// The application that wrote the file (meta:generator, app.xml's Application).
  var creator: String?
  var created: Date?
  var modified: Date?
  var pageCount: Int?
  var organizations: [String] = []
  var publishers: [String] = []
  var contributors: [String] = []
  var identifier: String?
  var copyright: String?

  func write(into attributes: inout AttributeSet) {
    func text(_ value: String?, _ key: AttributeKey) {
      if let value = value?.trimmingWhitespace(), !value.isEmpty {
        attributes.set(.text(value), for: key)
      }
    }
    func list(_ values: [String], _ key: AttributeKey) {
      let cleaned = values.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
      if !cleaned.isEmpty { attributes.set(cleaned.map(AttributeValue.text), for: key) }
    }
    text(title, .title)
    list(authors, .authors)
    text(subject, .subject)
    text(contentDescription, .contentDescription)
    list(keywords, .keywords)
    list(languages, .languages)
    text(creator, .creator)
    if let created { attributes.set(.date(created), for: .contentCreationDate) }
    if let modified { attributes.set(.date(modified), for: .contentModificationDate) }
    if let pageCount, pageCount >= 0 { attributes.set(.number(Double(pageCount)), for: .pageCount) }
    list(organizations, .organizations)
    list(publishers, .publishers)
    list(contributors, .contributors)
    text(identifier, .identifier)
    text(copyright, .copyright)
  }

  /// A date as office files write it: ISO 8601, zoned (OOXML, EPUB) or not (ODF: local time).
  static func date(_ text: String?) -> Date? {
    text.flatMap { ISO8601Dates.parse($0.trimmingWhitespace()) }
  }

  /// Keywords written as one string: split on commas and semicolons.
  static func splitKeywords(_ text: String) -> [String] {
    text.split(whereSeparator: { $0 == "," || $0 == ";" }).map { $0.trimmingWhitespace() }
      .filter { !$0.isEmpty }
  }
}
