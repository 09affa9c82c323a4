import Foundation
import LumenModel
import LumenQuery
import LumenTestSupport
import Testing

@testable import LumenStore

/// THE property: for seeded random items and seeded random query ASTs, the SQL the store
/// compiles returns exactly the items `QueryEvaluator` accepts. A failure prints the seed, the
/// query and every item on which they disagree.
@Suite struct PropertyTests {
  static let seeds: [UInt64] = [1, 2, 3, 4, 5, 6, 7, 8]
  static let queriesPerSeed = 400

  @Test(arguments: seeds)
  func sqlEqualsTheEvaluator(seed: UInt64) async throws {
    try await check(seed: seed, bulkLoading: false)
  }

  /// The same while a bulk load has dropped the dense indexes and left the full-text tables
  /// behind (`DeferredFullText`): every full-text candidate set becomes a scan, so a query that
  /// relied on the word or trigram index for anything but speed would show here.
  @Test(arguments: seeds.prefix(4))
  func sqlEqualsTheEvaluatorDuringABulkLoad(seed: UInt64) async throws {
    try await check(seed: seed, bulkLoading: true)
  }

  private func check(seed: UInt64, bulkLoading: Bool) async throws {
    // The seed scrambled, as the cases these tests were first written against were made.
    var random = SeededRandom(seed: (seed &+ 1) &* 0xD1B5_4A32_D192_ED03)
    let folder = try TemporaryFolder()
    let index = try makeIndex(folder, batchSize: 64)
    if bulkLoading {
      #expect(try await index.beginBulkLoad())
      #expect(try await index.isFullTextDeferred())
    }
    try await index.declareCustomKeys(RandomCorpus.customKeys)
    let items = (0..<180).map { RandomCorpus.item($0, &random) }
    // The second half in a later generation of the attribute indexes (v5: keyed by
    // generation of the row id), so that queries seek more than one: a row with a high id
    // placed between the halves, then deleted.
    try await index.indexSearchableItems(Array(items[..<90]))
    let spacer = Int64(3) << StoreMigrations.generationShift
    try await index.pool.write { db in
      try db.execute(sql: "INSERT INTO item(id, uid) VALUES (?, 'spacer')", arguments: [spacer])
    }
    try await index.indexSearchableItems(Array(items[90...]))
    try await index.deleteSearchableItems(withIdentifiers: ["spacer"])
    let largest = try await index.pool.read { db in
      try Int64.fetchOne(db, sql: "SELECT max(id) FROM item") ?? 0
    }
    #expect(largest >> StoreMigrations.generationShift == 3)
    // Replacements and deletes, so the indexes have seen rows go too.
    let replacements = (0..<20).map { RandomCorpus.item($0 * 7, &random) }
    try await index.indexSearchableItems(replacements)
    let deleted = (0..<5).map { items[$0 * 11].uniqueIdentifier }
    try await index.deleteSearchableItems(withIdentifiers: deleted)
    // What was written, by identifier: the evaluator sees the items as given, not as read back.
    var current: [String: AttributeSet] = [:]
    for item in items + replacements { current[item.uniqueIdentifier] = item.attributeSet }
    for identifier in deleted { current[identifier] = nil }
    let liveIDs = Set(try await index.search(.constant(true)).map(\.identifier))
    #expect(liveIDs == Set(current.keys))
    for (identifier, attributes) in current {
      let stored = try await index.item(withIdentifier: identifier)
      #expect(stored?.attributes == attributes, "\(identifier) does not round-trip")
    }

    let evaluator = QueryEvaluator(registry: index.registry)
    let generator = RandomQueries(registry: index.registry)
    var failures = 0
    var selective = 0  // queries matching some but not all items: the informative ones
    for number in 0..<Self.queriesPerSeed {
      let query = generator.expression(depth: 3, &random)
      let expected = Set(current.filter { evaluator.matches(query, $0.value) }.keys)
      let actual: Set<String>
      do {
        actual = Set(try await index.search(query).map(\.identifier))
      } catch {
        Issue.record("seed \(seed) query #\(number) \(QueryFormatter.format(query)): \(error)")
        failures += 1
        continue
      }
      if !expected.isEmpty && expected.count < current.count { selective += 1 }
      let count = try await index.count(query)
      if actual != expected || count != expected.count {
        failures += 1
        var report = "seed \(seed) query #\(number): \(QueryFormatter.format(query))\n"
        report += "  AST: \(query)\n  count \(count), expected \(expected.count)\n"
        for id in expected.symmetricDifference(actual).sorted().prefix(5) {
          report += "  \(expected.contains(id) ? "missing" : "extra") \(id): "
          report += "\(current[id]?.values.sorted { $0.key < $1.key } ?? [])\n"
        }
        Issue.record(Comment(rawValue: report))
        if failures > 5 { return }
      }
    }
    // Guard against a vacuous test: most queries must split the items.
    #expect(selective > Self.queriesPerSeed / 2, "only \(selective) selective queries")
    print(
      "seed \(seed): \(selective) of \(Self.queriesPerSeed) queries selective, \(current.count) items"
    )
  }
}

/// Items made of a small vocabulary with case, diacritic, NFC/NFD and camel-case variants, so
/// that random patterns often hit and the folding rules are exercised.
enum RandomCorpus {
  static let words = [
    "Paris", "paris", "PARIS", "Pâris", "Pa\u{302}ris", "résumé", "RESUME", "Re\u{301}sume\u{301}",
    "report", "Report2024", "MyWindowClass", "NSWindow", "window", "budget", "Budget",
    "comparison", "straße", "ÉCOLE", "école", "ecole", "IMG_0001", "JPG", "a*b", "x", "ab",
    "中文", "日本語", "naïve", "Ǆemal", "ﬁle", "İstanbul", "ΣΟΦΙΑ", "σοφία", "123", "4.5",
  ]
  static let separators = [" ", "-", "_", ".", "", "/", "  "]
  static let folders = [
    "/home/u", "/home/u/Documents", "/home/u/Docs", "/data", "/home/u/Pâris",
    "/home/u/Pa\u{302}ris", "/srv/a b",
  ]
  static let trees: [[String]] = [
    ["public.jpeg", "public.image", "public.data", "public.item", "public.content"],
    ["public.png", "public.image", "public.data", "public.item"],
    ["com.adobe.pdf", "public.data", "public.item", "public.composite-content"],
    ["public.plain-text", "public.text", "public.data", "public.item"],
  ]

  static let tag = try! AttributeKey.custom("tag", searchableByDefault: true, multiValued: true)
  static let code = try! AttributeKey.custom("code")
  static let score = try! AttributeKey.custom("score", valueType: .number, multiValued: true)
  static let due = try! AttributeKey.custom("due", valueType: .date)
  static let done = try! AttributeKey.custom("done", valueType: .bool)
  static let customKeys = [tag, code, score, due, done]

  static let textKeys: [AttributeKey] = [
    .title, .displayName, .kind, .identifier, .keywords, .authors, .whereFroms, .textContent,
    .contentType, .comment, tag, code,
  ]
  static let numberKeys: [AttributeKey] = [.pageCount, .fileSize, .rating, score]
  static let dateKeys: [AttributeKey] = [.contentCreationDate, .lastUsedDate, due]
  static let boolKeys: [AttributeKey] = [.flashOn, done]

  static func text(_ random: inout SeededRandom) -> String {
    let count = Int.random(in: 1...3, using: &random)
    var parts: [String] = []
    for _ in 0..<count { parts.append(random.pick(words)) }
    return parts.joined(separator: random.pick(separators))
  }

  static func number(_ random: inout SeededRandom) -> Double {
    random.pick([0, 1, 2, 3, 10, 100, 1.5, -2, 1e6, 12345])
  }

  static func date(_ random: inout SeededRandom) -> Date {
    Date(
      timeIntervalSinceReferenceDate: random.pick([0, 86_400, 700_000_000, 700_000_000.5, -1e6]))
  }

  static func item(_ ordinal: Int, _ random: inout SeededRandom) -> SearchableItem {
    var attributes = AttributeSet()
    let isFile = random.chance(0.6)
    var identifier = "item-\(ordinal)"
    if isFile || random.chance(0.3) {
      let name = text(&random).replacingOccurrences(of: "/", with: "_")
      let path = random.pick(folders) + "/" + name + (random.chance(0.5) ? ".txt" : "")
      attributes.set(.text(path), for: .path)
      let fileName =
        random.chance(0.85) ? String(path.split(separator: "/").last ?? "") : text(&random)
      attributes.set(.text(fileName), for: .fileName)
    }
    for key in textKeys where random.chance(0.3) {
      let count = key.isMultiValued ? Int.random(in: 1...3, using: &random) : 1
      attributes.set((0..<count).map { _ in .text(text(&random)) }, for: key)
    }
    if random.chance(0.5) {
      let tree = random.pick(trees)
      attributes.set(tree.map(AttributeValue.text), for: .contentTypeTree)
      if random.chance(0.8) { attributes.set(.text(tree[0]), for: .contentType) }
    }
    for key in numberKeys where random.chance(0.35) {
      let count = key.isMultiValued ? Int.random(in: 1...3, using: &random) : 1
      attributes.set((0..<count).map { _ in .number(number(&random)) }, for: key)
    }
    for key in dateKeys where random.chance(0.35) { attributes.set(.date(date(&random)), for: key) }
    for key in boolKeys where random.chance(0.35) {
      attributes.set(.bool(random.chance(0.5)), for: key)
    }
    // Paths repeat across items: keep identifiers unique by suffixing the number.
    if isFile, let path = attributes.text(.path) {
      let unique = path + "-\(ordinal)"
      attributes.set(.text(unique), for: .path)
      if random.chance(0.85) {
        attributes.set(.text(String(unique.split(separator: "/").last ?? "")), for: .fileName)
      }
      identifier = unique
    }
    return SearchableItem(
      uniqueIdentifier: identifier, domainIdentifier: random.chance(0.3) ? "d" : nil,
      attributeSet: attributes)
  }
}

/// Random ASTs over the corpus's attributes and vocabulary.
struct RandomQueries {
  let registry: AttributeRegistry

  func expression(depth: Int, _ random: inout SeededRandom) -> QueryExpression {
    if depth > 0 && random.chance(0.4) {
      switch Int.random(in: 0..<3, using: &random) {
      case 0: return .not(expression(depth: depth - 1, &random))
      case 1:
        return .and(expression(depth: depth - 1, &random), expression(depth: depth - 1, &random))
      default:
        return .or(expression(depth: depth - 1, &random), expression(depth: depth - 1, &random))
      }
    }
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<2: return .constant(random.chance(0.5))
    case 2..<10:
      return .freeText((0..<Int.random(in: 1...2, using: &random)).map { _ in term(&random) })
    case 10..<20: return inRange(&random)
    case 20..<30:
      var comparison = textComparison(.anySearchable, &random)
      // Spotlight's habitual `cdw` takes a path of its own (the words document): favour it.
      if random.chance(0.3) {
        comparison.modifiers = [.caseInsensitive, .diacriticInsensitive, .wordBased]
      }
      return .comparison(comparison)
    default: return comparison(&random)
    }
  }

  private func term(_ random: inout SeededRandom) -> String {
    let word = random.pick(RandomCorpus.words)
    let cut = Int.random(in: 1...max(1, word.count), using: &random)
    return random.chance(0.3) ? String(word.prefix(cut)) : RandomCorpus.text(&random)
  }

  private func pattern(_ random: inout SeededRandom) -> TextPattern {
    var text = random.chance(0.7) ? random.pick(RandomCorpus.words) : RandomCorpus.text(&random)
    if random.chance(0.3) {
      let scalars = Array(text.unicodeScalars)
      let start = Int.random(in: 0..<scalars.count, using: &random)
      let end = Int.random(in: start...scalars.count, using: &random)
      var view = String.UnicodeScalarView()
      view.append(contentsOf: scalars[start..<end])
      text = String(view)
    }
    var segments: [TextPattern.Segment] = []
    if random.chance(0.35) { segments.append(.wildcard) }
    if random.chance(0.2), text.count > 2 {
      let middle = text.index(text.startIndex, offsetBy: text.count / 2)
      segments += [.literal(String(text[..<middle])), .wildcard, .literal(String(text[middle...]))]
    } else {
      segments.append(.literal(text))
    }
    if random.chance(0.35) { segments.append(.wildcard) }
    return TextPattern(segments: segments)
  }

  private func modifiers(_ random: inout SeededRandom) -> TextModifiers {
    var modifiers: TextModifiers = []
    if random.chance(0.4) { modifiers.insert(.caseInsensitive) }
    if random.chance(0.3) { modifiers.insert(.diacriticInsensitive) }
    if random.chance(0.25) { modifiers.insert(.wordBased) }
    if random.chance(0.05) { modifiers.insert(.tokenized) }
    return modifiers
  }

  private func textComparison(_ attribute: QueryAttribute, _ random: inout SeededRandom)
    -> Comparison
  {
    let op: ComparisonOperator =
      random.chance(0.75)
      ? (random.chance(0.8) ? .equal : .notEqual) : random.pick(ComparisonOperator.allCases)
    return Comparison(
      attribute: attribute, op: op, value: .text(pattern(&random)), modifiers: modifiers(&random))
  }

  private func comparison(_ random: inout SeededRandom) -> QueryExpression {
    let textKeys = RandomCorpus.textKeys + [.path, .fileName, .contentTypeTree]
    switch Int.random(in: 0..<10, using: &random) {
    case 0..<6:
      var comparison = textComparison(.key(random.pick(textKeys)), &random)
      if case .key(let key) = comparison.attribute, key == .contentTypeTree || key == .contentType,
        random.chance(0.6)
      {
        comparison.value = .text(.literal(random.pick(RandomCorpus.trees.flatMap { $0 })))
      }
      if case .key(.path) = comparison.attribute, random.chance(0.5) {
        let folder = random.pick(RandomCorpus.folders)
        comparison.value = .text(TextPattern(segments: [.literal(folder + "/"), .wildcard]))
      }
      return .comparison(comparison)
    case 6..<8:
      let key = random.pick(RandomCorpus.numberKeys)
      return .comparison(
        Comparison(
          attribute: .key(key), op: random.pick(ComparisonOperator.allCases),
          value: .number(RandomCorpus.number(&random))))
    case 8:
      let key = random.pick(RandomCorpus.dateKeys)
      return .comparison(
        Comparison(
          attribute: .key(key), op: random.pick(ComparisonOperator.allCases),
          value: .date(RandomCorpus.date(&random))))
    default:
      let key = random.pick(RandomCorpus.boolKeys)
      let value: QueryValue = random.chance(0.9) ? .bool(random.chance(0.5)) : .number(1)
      return .comparison(
        Comparison(
          attribute: .key(key), op: random.pick(ComparisonOperator.allCases), value: value))
    }
  }

  private func inRange(_ random: inout SeededRandom) -> QueryExpression {
    switch Int.random(in: 0..<4, using: &random) {
    case 0:
      let (a, b) = (RandomCorpus.number(&random), RandomCorpus.number(&random))
      return .inRange(
        attribute: .key(random.pick(RandomCorpus.numberKeys)), lower: .number(min(a, b)),
        upper: .number(max(a, b)))
    case 1:
      let (a, b) = (RandomCorpus.date(&random), RandomCorpus.date(&random))
      return .inRange(
        attribute: .key(random.pick(RandomCorpus.dateKeys)), lower: .date(min(a, b)),
        upper: .date(max(a, b)))
    case 2:
      let (a, b) = (random.pick(RandomCorpus.words), random.pick(RandomCorpus.words))
      let attribute: QueryAttribute =
        random.chance(0.2) ? .anySearchable : .key(random.pick(RandomCorpus.textKeys))
      return .inRange(
        attribute: attribute, lower: .text(.literal(min(a, b))), upper: .text(.literal(max(a, b))))
    default:
      return .inRange(
        attribute: .key(random.pick(RandomCorpus.boolKeys)), lower: .bool(false),
        upper: .bool(random.chance(0.5)))
    }
  }
}
