/// SplitMix64: a tiny deterministic generator, so a seed makes the same cases on every machine
/// and a failing random test fails the same way again (Swift's system generator cannot be
/// seeded).
public struct SeededRandom: RandomNumberGenerator {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// True with the given probability.
  public mutating func chance(_ probability: Double) -> Bool {
    Double.random(in: 0..<1, using: &self) < probability
  }

  /// One element of a non-empty list.
  public mutating func pick<T>(_ list: [T]) -> T {
    list[Int.random(in: 0..<list.count, using: &self)]
  }
}
