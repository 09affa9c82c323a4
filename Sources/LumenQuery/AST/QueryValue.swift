import Foundation

/// A literal in a query, already converted to the compared attribute's type.
public enum QueryValue: Sendable, Equatable {
  case text(TextPattern)
  case number(Double)
  case date(Date)
  case bool(Bool)
}

/// A quoted string with its `*` wildcards: a sequence of literal runs separated by wildcards.
/// Escaped `\*` is a literal star. `"*paris*"` is `[.wildcard, .literal("paris"), .wildcard]`.
public struct TextPattern: Sendable, Equatable, CustomStringConvertible {
  public enum Segment: Sendable, Equatable {
    case literal(String)
    case wildcard
  }

  public let segments: [Segment]

  public init(segments: [Segment]) {
    // Normalise: merge adjacent literals, collapse runs of wildcards, drop empty literals.
    var normalised: [Segment] = []
    for segment in segments {
      switch (segment, normalised.last) {
      case (.literal(let s), _) where s.isEmpty: continue
      case (.literal(let s), .literal(let previous)?):
        normalised[normalised.count - 1] = .literal(previous + s)
      case (.wildcard, .wildcard?): continue
      default: normalised.append(segment)
      }
    }
    self.segments = normalised
  }

  /// A pattern with no wildcards.
  public static func literal(_ text: String) -> TextPattern {
    TextPattern(segments: [.literal(text)])
  }

  public var hasWildcards: Bool { segments.contains(.wildcard) }

  /// The text when the pattern has no wildcard.
  public var literalText: String? {
    if segments.isEmpty { return "" }
    if segments.count == 1, case .literal(let s) = segments[0] { return s }
    return nil
  }

  /// The literal runs, in order.
  public var literals: [String] {
    segments.compactMap { if case .literal(let s) = $0 { s } else { nil } }
  }

  public var description: String {
    segments.map {
      switch $0 {
      case .wildcard: "*"
      case .literal(let s): s.replacingOccurrences(of: "*", with: "\\*")
      }
    }.joined()
  }
}
