/// The first-in, first-out queue of actions a root store has yet to process in the current batch.
///
/// An `Array` used as a queue copied each element out (retaining what it holds) and destroyed
/// every element again when the batch ended, through unspecialized value witnesses: about a
/// third of what an action sent by a `.send` effect cost. This queue moves elements in and out of
/// its own buffer, so an action passes through it without a copy.
///
/// It owns its buffer, so it is noncopyable, and its owner calls ``deallocate()`` (a `deinit`
/// would have to be resilient, and the compiler cannot inline the store's inlinable send path
/// around it). The root store keeps it in its `Storage`, which is only ever reached through one
/// pointer on the main actor, and deallocates it in its own `deinit`.
@usableFromInline
struct ActionQueue<Element>: ~Copyable {
  @usableFromInline var elements: UnsafeMutablePointer<Element>
  @usableFromInline var capacity: Int
  /// The index of the first element still queued.
  @usableFromInline var head = 0
  /// The index after the last element queued.
  @usableFromInline var tail = 0

  @usableFromInline
  init(capacity: Int = 16) {
    self.capacity = capacity
    self.elements = .allocate(capacity: capacity)
  }

  @inlinable
  var isEmpty: Bool { head == tail }

  @inlinable
  mutating func append(_ element: consuming Element) {
    if tail == capacity { makeRoom() }
    (elements + tail).initialize(to: element)
    tail += 1
  }

  /// Removes and returns the first element, or returns `nil` when the queue is empty.
  @inlinable
  mutating func popFirst() -> Element? {
    guard head < tail else { return nil }
    let element = (elements + head).move()
    head += 1
    if head == tail {
      head = 0
      tail = 0
    }
    return element
  }

  /// Makes room at the end: slides the queued elements to the front, or doubles the buffer.
  @usableFromInline
  mutating func makeRoom() {
    let count = tail - head
    if head > 0, count < capacity / 2 {
      elements.moveInitialize(from: elements + head, count: count)
    } else {
      let newCapacity = capacity * 2
      let newElements = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
      newElements.moveInitialize(from: elements + head, count: count)
      elements.deallocate()
      elements = newElements
      capacity = newCapacity
    }
    head = 0
    tail = count
  }

  /// Destroys the elements still queued and frees the buffer. The queue is unusable after.
  @usableFromInline
  mutating func deallocate() {
    (elements + head).deinitialize(count: tail - head)
    elements.deallocate()
    head = 0
    tail = 0
    capacity = 0
  }
}
