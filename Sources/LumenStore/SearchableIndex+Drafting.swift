import Foundation
import LumenModel

/// Laying items out in rows (`RowDraft`) before they reach the writer, on every core.
///
/// Why: an index has one writer, and drafting an item (storage plan, stored values, folded
/// words for full-text search) is a quarter of what it does for a typical file item. Measured
/// by bench/query (300,000 items, 500-item calls): 32,020 items/s drafting on the writer,
/// 39,875 with every draft made beforehand and off the clock. A crawl drafts on its walk
/// threads (`draftRows`); the library's writing calls draft here: a call's first chunk on all
/// cores at once, each further chunk while the one before it is written.
extension SearchableIndex {
  /// Below this many items a chunk is drafted on one task: splitting costs more than it saves.
  static let parallelDraftMinimum = 64

  /// The drafts of `items`, one per item, nil where the writer must draft (updates, custom
  /// keys, which only the writer may declare).
  func drafts(for items: ArraySlice<SearchableItem>) async -> [RowDraft?] {
    await inParallel(items) { [self] slice in
      let cache = SearchDocuments.FoldCache()
      return slice.map { item in
        item.isUpdate
          ? nil : draft(item.uniqueIdentifier, attributes: item.attributeSet, cache: cache)
      }
    }
  }

  /// `records` with the drafts they lack made (`draftRows`), on all cores.
  func drafted(_ records: ArraySlice<FileRecord>) async -> [FileRecord] {
    await inParallel(records) { [self] slice in
      var records = Array(slice)
      draftRows(&records)
      return records
    }
  }

  /// The draft of one item as the writer would lay it out (its content-type tree completed),
  /// or nil when it names a custom key.
  func draft(_ identifier: String, attributes: AttributeSet, cache: SearchDocuments.FoldCache)
    -> RowDraft?
  {
    let attributes = Self.completed(attributes, contentTypes: options.contentTypes)
    return try? RowDraft(
      identifier: identifier, attributes: attributes, layout: layout, cache: cache
    ) { _ in throw DraftNeedsWriter() }
  }

  /// Writes `chunks` one transaction each through `write`, handing it each chunk's drafts:
  /// a chunk is drafted (`draft`) while the one before it is written.
  func writePipelined<Chunk: Sendable, Drafts: Sendable>(
    _ chunks: [Chunk], draft: @escaping @Sendable (Chunk) async -> Drafts,
    write: (Chunk, Drafts) async throws -> Void
  ) async rethrows {
    var next = chunks.first.map { first in Task { await draft(first) } }
    for (position, chunk) in chunks.enumerated() {
      let drafts = await next!.value
      next =
        position + 1 < chunks.count
        ? Task { [following = chunks[position + 1]] in await draft(following) } : nil
      try await write(chunk, drafts)
    }
  }

  /// `body` over contiguous slices of `elements`, one per core, results in order.
  private func inParallel<Element: Sendable, Result: Sendable>(
    _ elements: ArraySlice<Element>,
    _ body: @escaping @Sendable (ArraySlice<Element>) -> [Result]
  ) async -> [Result] {
    let parts = min(
      ProcessInfo.processInfo.activeProcessorCount,
      elements.count / Self.parallelDraftMinimum)
    guard parts > 1 else { return body(elements) }
    let size = (elements.count + parts - 1) / parts
    let slices = stride(from: elements.startIndex, to: elements.endIndex, by: size).map {
      elements[$0..<min($0 + size, elements.endIndex)]
    }
    return await withTaskGroup(of: (Int, [Result]).self) { group in
      for (position, slice) in slices.enumerated() {
        group.addTask { (position, body(slice)) }
      }
      var results = [[Result]](repeating: [], count: slices.count)
      for await (position, part) in group { results[position] = part }
      return results.flatMap { $0 }
    }
  }
}

/// A custom key: only the writer can resolve (and maybe declare) it.
struct DraftNeedsWriter: Error {}
