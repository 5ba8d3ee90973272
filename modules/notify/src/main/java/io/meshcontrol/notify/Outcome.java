package io.meshcontrol.notify;

/**
 * What one attempt of a delivery came to.
 *
 * @param status the receiver's status (250 for mail taken), 0 when none came
 * @param error  what went wrong, null when delivered
 */
record Outcome(Kind kind, int status, String error) {

    enum Kind {
        /** Delivered: finished. */
        DELIVERED,
        /** Worth another attempt, if any remain (5xx, 429, no answer, a mail server out of reach). */
        RETRY,
        /** Failed for good (4xx, a redirect, a refused address, a rejected message). */
        FINAL
    }

    static Outcome delivered(int status) {
        return new Outcome(Kind.DELIVERED, status, null);
    }

    static Outcome retry(int status, String error) {
        return new Outcome(Kind.RETRY, status, error);
    }

    static Outcome fail(int status, String error) {
        return new Outcome(Kind.FINAL, status, error);
    }
}
