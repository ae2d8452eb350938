import Foundation
import Notifications
import Testing

/// Errors shown to people: their sentences, whether retrying helps, and their saved shape.
struct UserFacingErrorTests {
  @Test func eachErrorHasASentence() {
    #expect(
      UserFacingError.network.message
        == "You appear to be offline. Changes will be sent when you reconnect.")
    #expect(UserFacingError.unauthorized.message == "Your session has expired. Sign in again.")
    #expect(UserFacingError.notFound.message == "That notification no longer exists.")
    #expect(
      UserFacingError.server(status: 503).message
        == "The server had a problem (503). Try again later.")
    #expect(
      UserFacingError.server(status: 429).message
        == "The server had a problem (429): too many requests. Try again shortly.")
    #expect(
      UserFacingError.server(status: 400).message
        == "The server refused the request (400).")
    #expect(
      UserFacingError.invalidData(reason: "the date is missing").message
        == "The server sent something unexpected: the date is missing.")
    // A reason that ends a sentence of its own does not end this one twice ("JSON..").
    #expect(
      UserFacingError.invalidData(reason: "The given data was not valid JSON.").message
        == "The server sent something unexpected: The given data was not valid JSON.")
    #expect(UserFacingError.operationFailed(message: "Disk full.").message == "Disk full.")
  }

  @Test func networkRateLimitsAndServerErrorsAreRetryable() {
    #expect(UserFacingError.network.isRetryable)
    #expect(UserFacingError.server(status: 429).isRetryable)
    for status in [500, 502, 503, 504, 599] {
      #expect(UserFacingError.server(status: status).isRetryable, "\(status)")
    }
  }

  @Test func everythingElseIsNotRetryable() {
    for status in [400, 401, 403, 404, 409, 422, 499, 600, 0] {
      #expect(!UserFacingError.server(status: status).isRetryable, "\(status)")
    }
    #expect(!UserFacingError.unauthorized.isRetryable)
    #expect(!UserFacingError.notFound.isRetryable)
    #expect(!UserFacingError.invalidData(reason: "x").isRetryable)
    #expect(!UserFacingError.operationFailed(message: "x").isRetryable)
  }

  @Test func errorsAreSavedInAStableShapeAndRoundTrip() throws {
    let expected: [(UserFacingError, String)] = [
      (.network, #"{"network":{}}"#),
      (.unauthorized, #"{"unauthorized":{}}"#),
      (.notFound, #"{"notFound":{}}"#),
      (.server(status: 503), #"{"server":{"status":503}}"#),
      (.invalidData(reason: "r"), #"{"invalidData":{"reason":"r"}}"#),
      (.operationFailed(message: "m"), #"{"operationFailed":{"message":"m"}}"#),
    ]
    for (error, json) in expected {
      #expect(try ModelJSON.encode(error) == json)
      #expect(try ModelJSON.decode(UserFacingError.self, json) == error)
    }
  }
}
