/// The four kinds of value an attribute holds. The query compiler, the store's column types and
/// the JSON printers all switch on this, so an attribute's type is decided once, in its registry row.
public enum AttributeValueType: String, Sendable, Hashable, Codable, CaseIterable {
  case text
  case number
  case date
  case bool
}
