/// One attribute as data: a row of the registry. Built-in rows mirror Core Spotlight's
/// `CSSearchableItemAttributeSet` (with Apple's kMDItem name where Apple has one); custom rows
/// follow `CSCustomAttributeKey`'s rules.
public struct AttributeKey: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The Core Spotlight property name (`pageCount`), or the custom key name.
  public let name: String
  /// Apple's Spotlight name (`kMDItemNumberOfPages`), when Apple has one.
  public let mdItemName: String?
  /// Other spellings accepted in queries and JSON (`authorNames` for `authors`).
  public let aliases: [String]
  public let valueType: AttributeValueType
  public let isMultiValued: Bool
  /// Queries may name it. Core Spotlight's default for custom keys is true.
  public let isSearchable: Bool
  /// Free text and `*` look in it.
  public let isSearchableByDefault: Bool
  /// Duplicate values are the same value (Core Spotlight's storage hint).
  public let isUnique: Bool
  /// Declared by a program at run time rather than built in.
  public let isCustom: Bool

  public init(
    name: String, mdItemName: String? = nil, aliases: [String] = [],
    valueType: AttributeValueType, isMultiValued: Bool = false, isSearchable: Bool = true,
    isSearchableByDefault: Bool = false, isUnique: Bool = false, isCustom: Bool = false
  ) {
    self.name = name
    self.mdItemName = mdItemName
    self.aliases = aliases
    self.valueType = valueType
    self.isMultiValued = isMultiValued
    self.isSearchable = isSearchable
    self.isSearchableByDefault = isSearchableByDefault
    self.isUnique = isUnique
    self.isCustom = isCustom
  }

  /// A custom key, validated with Core Spotlight's rules: letters, digits and `_` (plus `.`
  /// separating parts, which Lumen allows for dotted structured-data names such as
  /// `schema.Event.location.address.addressLocality`), not starting with `kMD`, and not the name
  /// of a built-in attribute.
  public static func custom(
    _ name: String, valueType: AttributeValueType = .text, searchable: Bool = true,
    searchableByDefault: Bool = false, unique: Bool = false, multiValued: Bool = false
  ) throws(AttributeKeyError) -> AttributeKey {
    try validateCustomName(name)
    return AttributeKey(
      name: name, valueType: valueType, isMultiValued: multiValued, isSearchable: searchable,
      isSearchableByDefault: searchableByDefault, isUnique: unique, isCustom: true)
  }

  static func validateCustomName(_ name: String) throws(AttributeKeyError) {
    guard !name.isEmpty, name.utf8.count <= 128 else { throw .invalidName(name) }
    guard !name.hasPrefix("kMD") else { throw .reservedPrefix(name) }
    var previousWasDot = true
    for byte in name.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
        previousWasDot = false
      case UInt8(ascii: ".") where !previousWasDot:
        previousWasDot = true
      default:
        throw .invalidName(name)
      }
    }
    if previousWasDot { throw .invalidName(name) }
    if AttributeRegistry.builtIn.key(named: name) != nil { throw .builtInName(name) }
  }

  /// Every name this key answers to.
  public var allNames: [String] { [name] + (mdItemName.map { [$0] } ?? []) + aliases }

  public var description: String { name }
}

/// Why a custom key was refused.
public enum AttributeKeyError: Error, Equatable, CustomStringConvertible {
  case invalidName(String)
  case reservedPrefix(String)
  case builtInName(String)
  case conflictingDeclaration(String)

  public var description: String {
    switch self {
    case .invalidName(let name):
      "invalid attribute name '\(name)': use letters, digits and '_' (dots may separate parts)"
    case .reservedPrefix(let name):
      "invalid attribute name '\(name)': the prefix 'kMD' is reserved for Spotlight's names"
    case .builtInName(let name):
      "'\(name)' is a built-in attribute and cannot be redeclared"
    case .conflictingDeclaration(let name):
      "custom attribute '\(name)' is already declared with another type or multiplicity"
    }
  }
}
