// loom-bench: runs the workloads of the benchmark spec and prints one line per figure.
//
//   swift run -c release loom-bench                       all workloads at full size
//   swift run -c release loom-bench --quick               every workload at 1/10 of its size
//   swift run -c release loom-bench --only W4             one workload
//   swift run -c release loom-bench --json results.json   the lines, and every figure as JSON
//   loom-bench --gate W1                                  one fixed run for the callgrind gate
import Foundation

let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("--help") || arguments.contains("-h") {
  print(
    """
    usage: loom-bench [--quick] [--only W<n>] [--json PATH]
           loom-bench --gate W<n>

      --quick      run every workload at 1/10 of its size (for CI smoke runs)
      --only W4    run one workload (W0, W1, W1s, W1m, W2 to W6, W4c, W8 to W12)
      --json PATH  also write every figure, with the commit, date, toolchain and machine, as
                   JSON to PATH (the text lines still go to standard output); with PATH `-`
                   the JSON goes to standard output and the text lines to standard error
      --gate W1    run one workload of the instruction-count gate once, at its fixed size,
                   printing nothing (W1, W1s, W1m, W2c, W2d, W2i, W3, W6, W8, W9a, W9b, W9f, W11p, W11w,
                   W11s, W11e; see Benchmarks/callgrind/gate)
    """)
  exit(0)
}

/// The value after `option`, or nil when the option is absent; exits when the value is missing.
func value(of option: String, example: String) -> String? {
  guard let index = arguments.firstIndex(of: option) else { return nil }
  let next = arguments.index(after: index)
  guard next < arguments.endIndex else {
    FileHandle.standardError.write(
      Data("loom-bench: \(option) needs a value, like \(example)\n".utf8))
    exit(2)
  }
  return arguments[next]
}

if let gate = value(of: "--gate", example: "W1") {
  await runGate(gate.uppercased())
  exit(0)
}

let quick = arguments.contains("--quick")
let scale = quick ? 10 : 1
let only = value(of: "--only", example: "W4")?.uppercased()
let known = [
  "W0", "W1", "W1S", "W1M", "W2", "W3", "W4", "W4C", "W5", "W6", "W8", "W9", "W10", "W11", "W12",
]
if let only, !known.contains(only) {
  FileHandle.standardError.write(
    Data("loom-bench: unknown workload \(only); known: \(known.joined(separator: ", "))\n".utf8))
  exit(2)
}
let jsonPath = value(of: "--json", example: "Benchmarks/results/results.json")
if jsonPath == "-" {
  textLinesToStandardError = true
}

func shouldRun(_ id: String) -> Bool { only == nil || only == id }

await MainActor.run {
  if shouldRun("W0") { runW0(scale: scale) }
  if shouldRun("W1") { runW1(scale: scale) }
  if shouldRun("W1S") { runW1s(scale: scale) }
  if shouldRun("W1M") { runW1m(scale: scale) }
  if shouldRun("W2") { runW2(scale: scale) }
  if shouldRun("W3") { runW3(scale: scale) }
  if shouldRun("W9") { runW9(scale: scale) }
  if shouldRun("W11") { runW11(scale: scale) }
}
if shouldRun("W4") { await runW4(scale: scale) }
if shouldRun("W4C") { await runW4c(scale: scale) }
if shouldRun("W5") { await runW5(scale: scale) }
// The floor of W4 (b) and W5: bare tasks, no store (reported under W4 and W5).
if shouldRun("W4") || shouldRun("W5") { await runTaskFloor(scale: scale) }
if shouldRun("W6") { await runW6(scale: scale) }
if shouldRun("W8") { await runW8(scale: scale) }
if shouldRun("W10") { await runW10(scale: scale) }
if shouldRun("W11") { await runW11Presentation(scale: scale) }
if shouldRun("W12") { await runW12(scale: scale) }

if let jsonPath {
  let results = Results.collect(quick: quick)
  do {
    let data = try results.json()
    if jsonPath == "-" {
      FileHandle.standardOutput.write(data)
    } else {
      try data.write(to: URL(fileURLWithPath: jsonPath))
    }
  } catch {
    FileHandle.standardError.write(Data("loom-bench: cannot write \(jsonPath): \(error)\n".utf8))
    exit(1)
  }
}
