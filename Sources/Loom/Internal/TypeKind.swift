/// Whether `type` is an enum (or an optional), read from its metadata's kind without reflecting
/// a value: the first word of a type's metadata is its kind, which the Swift ABI fixes (stable
/// on Apple platforms and the same on Linux): 0x201 for an enum, 0x202 for an optional. A
/// class's first word is a pointer, never either.
@usableFromInline
package func isEnumType(_ type: Any.Type) -> Bool {
  let kind = unsafeBitCast(type, to: UnsafePointer<Int>.self).pointee
  return kind == 0x201 || kind == 0x202
}

/// Whether `type` is an optional (see ``isEnumType(_:)``).
package func isOptionalType(_ type: Any.Type) -> Bool {
  unsafeBitCast(type, to: UnsafePointer<Int>.self).pointee == 0x202
}
