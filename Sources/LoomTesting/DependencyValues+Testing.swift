import Loom

extension DependencyValues {
  /// The dependencies a test store starts from: the current ones, in the test context, with a
  /// fresh cache so nothing leaks in from another test.
  static var testing: DependencyValues {
    var values = DependencyValues.current
    values.context = .test
    values.resetCache()
    return values
  }
}
