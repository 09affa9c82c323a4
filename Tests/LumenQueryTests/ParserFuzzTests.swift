import Foundation
import LumenModel
import LumenTestSupport
import Testing

@testable import LumenQuery

/// Seeded random inputs: the parser never crashes, and every failure points inside the query.
@Suite struct ParserFuzzTests {
  private func check(_ query: String, _ parser: QueryParser) -> String? {
    do {
      _ = try parser.parse(query)
      return nil
    } catch {
      guard (1...query.count + 1).contains(error.column) else {
        return "column \(error.column) outside 1...\(query.count + 1) for \(query.debugDescription)"
      }
      guard error.rendered.hasSuffix("\n" + error.message), !error.message.isEmpty else {
        return "bad rendering for \(query.debugDescription)"
      }
      return nil
    }
  }

  @Test func randomCharacters() {
    var random = SeededRandom(seed: 0xF022)
    let pieces: [String] = [
      "a", "Z", "k", "0", "9", ".", "-", "+", "e", " ", "\t", "\n", "\"", "'", "\\", "*", "=",
      "!", "<", ">", "&", "|", "(", ")", "[", "]", ",", "$", "é", "e\u{301}", "\u{301}", "😀",
      "🇫🇷", "\u{0}", "\u{FEFF}", "東", "_", "c", "d", "w", "t", ";", "#", "\r\n",
    ]
    var problems: [String] = []
    for _ in 0..<6000 {
      let length = Int.random(in: 0...24, using: &random)
      let query = (0..<length).map { _ in pieces.randomElement(using: &random)! }.joined()
      if let problem = check(query, parisParser) { problems.append(problem) }
    }
    #expect(problems.isEmpty, "\(problems.prefix(5))")
  }

  @Test func randomBytesDecodedLeniently() {
    var random = SeededRandom(seed: 0xB17E5)
    var problems: [String] = []
    for _ in 0..<3000 {
      let bytes = (0..<Int.random(in: 0...40, using: &random)).map { _ in
        UInt8.random(in: 0...255, using: &random)
      }
      let query = String(decoding: bytes, as: UTF8.self)
      if let problem = check(query, parisParser) { problems.append(problem) }
    }
    #expect(problems.isEmpty, "\(problems.prefix(5))")
  }

  /// Grammar-shaped queries, then mutated by deleting, inserting or swapping a character.
  @Test func grammarShapedAndMutated() {
    var random = SeededRandom(seed: 0x6A77)
    var generator = QueryTextGenerator(random: random)
    var problems: [String] = []
    var parsed = 0
    for _ in 0..<4000 {
      var query = Array(generator.expression(depth: 0))
      if !query.isEmpty, Bool.random(using: &random) {
        let index = Int.random(in: 0..<query.count, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: query.remove(at: index)
        case 1: query.insert(Array("\"'()*=!&|$[,\\x ").randomElement(using: &random)!, at: index)
        default: query.swapAt(index, Int.random(in: 0..<query.count, using: &random))
        }
      }
      let text = String(query)
      if let problem = check(text, parisParser) { problems.append(problem) }
      if (try? parisParser.parse(text)) != nil { parsed += 1 }
    }
    random = generator.random
    #expect(problems.isEmpty, "\(problems.prefix(5))")
    #expect(parsed > 600, "the generator should often write valid queries")
  }

  /// Random ASTs written out by `QueryFormatter` read back as the same AST.
  @Test func formattedQueriesReadBackIdentically() throws {
    var generator = ASTGenerator(random: SeededRandom(seed: 0xA57))
    let parser = QueryParser(now: date("2024-03-15T09:30:00Z"), timeZone: paris)
    for _ in 0..<3000 {
      let expression = generator.expression(depth: 0)
      let text = expression.queryText
      let reparsed = try parser.parse(text)
      #expect(reparsed == expression, "\(text)")
      if reparsed != expression { break }
    }
  }

  @Test(arguments: [
    ["budget", "report"], ["quarterly budget", "2024"], [#"say "hi""#], ["don't"], ["a=b c"],
  ])
  func formattedFreeTextReadsBack(_ terms: [String]) throws {
    let expression = QueryExpression.freeText(terms)
    #expect(try QueryParser().parse(expression.queryText) == expression)
  }
}

/// Writes plausible query text from the grammar, with the odd mistake.
struct QueryTextGenerator {
  var random: SeededRandom
  let attributes = [
    "title", "kMDItemTitle", "authorNames", "pageCount", "kMDItemFSSize", "flashOn",
    "contentCreationDate", "contentTypeTree", "*", "nosuch",
  ]
  let values = [
    #""Paris""#, "'knuth*'c", #""*paris*"cd"#, "10", "-1.5e3", "true", "0", "$time.today(-10)",
    "$time.now", "$time.iso(2024-01-01T00:00:00Z)", #""2024-01-01""#, "$time.this_week(-1)",
    #""a\*b"wc"#, "\"résumé\"d", "12abc", "$time.nope",
  ]
  let operators = ["==", "!=", "<", ">", "<=", ">=", "=", "==[cd]", "!=[c]"]

  mutating func expression(depth: Int) -> String {
    switch depth > 4 ? 0 : Int.random(in: 0..<8, using: &random) {
    case 0, 1, 2:
      let attribute = attributes.randomElement(using: &random)!
      let op = operators.randomElement(using: &random)!
      return "\(attribute) \(op) \(values.randomElement(using: &random)!)"
    case 3:
      return "(\(expression(depth: depth + 1)) && \(expression(depth: depth + 1)))"
    case 4:
      return "\(expression(depth: depth + 1)) || \(expression(depth: depth + 1))"
    case 5:
      return "!\(expression(depth: depth + 1))"
    case 6:
      let attribute = ["pageCount", "contentCreationDate", "title", "flashOn"].randomElement(
        using: &random)!
      return
        "InRange(\(attribute), \(values.randomElement(using: &random)!), \(values.randomElement(using: &random)!))"
    default:
      return ["true", "false", "budget report", #""quarterly budget""#].randomElement(
        using: &random)!
    }
  }
}

/// Random well-typed ASTs, as the parser would build them.
struct ASTGenerator {
  var random: SeededRandom
  let keys = AttributeKey.builtIns

  mutating func expression(depth: Int) -> QueryExpression {
    switch depth > 5 ? 0 : Int.random(in: 0..<9, using: &random) {
    case 0, 1, 2, 3: return .comparison(comparison())
    case 4: return .and(expression(depth: depth + 1), expression(depth: depth + 1))
    case 5: return .or(expression(depth: depth + 1), expression(depth: depth + 1))
    case 6: return .not(expression(depth: depth + 1))
    case 7: return .constant(Bool.random(using: &random))
    default:
      let key = keys.filter { $0.valueType != .bool }.randomElement(using: &random)!
      let attribute: QueryAttribute =
        key.valueType == .text && Bool.random(using: &random) ? .anySearchable : .key(key)
      let type = attribute == .anySearchable ? .text : key.valueType
      return .inRange(
        attribute: attribute, lower: value(type, wildcards: false),
        upper: value(type, wildcards: false))
    }
  }

  private mutating func comparison() -> Comparison {
    let key = keys.randomElement(using: &random)!
    let attribute: QueryAttribute =
      key.valueType == .text && Int.random(in: 0..<4, using: &random) == 0
      ? .anySearchable : .key(key)
    let type = attribute == .anySearchable ? .text : key.valueType
    var ops = ComparisonOperator.allCases
    if type == .bool { ops = [.equal, .notEqual] }
    let op = ops.randomElement(using: &random)!
    let ordering = op != .equal && op != .notEqual
    var modifiers: TextModifiers = []
    if type == .text {
      let allowed: [TextModifiers] = ordering ? [.c, .d] : [.c, .d, .w, .t]
      for modifier in allowed where Bool.random(using: &random) { modifiers.insert(modifier) }
    }
    return Comparison(
      attribute: attribute, op: op, value: value(type, wildcards: !ordering), modifiers: modifiers)
  }

  private mutating func value(_ type: AttributeValueType, wildcards: Bool) -> QueryValue {
    switch type {
    case .text:
      let pieces: [TextPattern.Segment] = [
        .literal("Paris"), .literal("ré"), .literal("a\"b"), .literal("back\\slash"), .literal("*"),
        .literal(" "), .literal("'"), .literal("東京"), .literal("e\u{301}"), .wildcard,
      ]
      let segments = (0..<Int.random(in: 0...4, using: &random)).map { _ in
        pieces.randomElement(using: &random)!
      }
      .filter { wildcards || $0 != .wildcard }
      return .text(TextPattern(segments: segments))
    case .number:
      let choices: [Double] = [
        0, -0.5, 12, 1e-5, -3.25e20, Double.random(in: -1e6...1e6, using: &random), 1.0 / 3.0,
      ]
      return .number(choices.randomElement(using: &random)!)
    case .date:
      return .date(
        Date(timeIntervalSinceReferenceDate: Double.random(in: -1e9...1e9, using: &random)))
    case .bool:
      return .bool(Bool.random(using: &random))
    }
  }
}
