package io.meshcontrol.api;

/**
 * The answer of {@code POST /api/v1/policy/check} for a valid policy (an invalid one is a 400 problem with the
 * vendor's error text, {@code test(s) failed: ...} when a test fails). Nothing is saved.
 *
 * @param tests how many {@code tests} entries passed
 * @param sshTests how many {@code sshTests} entries passed
 */
public record PolicyCheck(boolean valid, int tests, int sshTests) {
}
