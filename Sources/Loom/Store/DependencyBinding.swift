/// Runs `body` with `values` bound as the current dependencies. Lets the inlinable send path
/// bind dependencies without exposing the task-local itself.
@usableFromInline
func _withDependencies(_ values: DependencyValues, _ body: () -> Void) {
  DependencyValues.$current.withValue(values, operation: body)
}

/// The dependencies of the current context.
@usableFromInline
func _currentDependencies() -> DependencyValues {
  DependencyValues.current
}
