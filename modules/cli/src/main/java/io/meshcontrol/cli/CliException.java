package io.meshcontrol.cli;

/** A failure the user can act on, printed as one line without a stack trace. */
final class CliException extends RuntimeException {

    CliException(String message) {
        super(message);
    }
}
