package io.meshcontrol.gui.screen;

import io.meshcontrol.api.ApiException;
import io.meshcontrol.api.ClientSettingsException;
import io.meshcontrol.api.LocalServerNotFoundException;
import io.meshcontrol.api.ServerUnreachableException;
import java.security.cert.CertificateException;
import javax.net.ssl.SSLException;

/** One readable sentence for what went wrong in a call to the server, as the window shows it. */
public final class Failures {

    private Failures() {
    }

    public static String describe(Throwable failure) {
        return switch (failure) {
            case ApiException api when api.status() == 401 -> "The server refused the credential: the API key is"
                    + " wrong, expired or revoked (" + api.getMessage() + ").";
            case ApiException api when api.status() == 403 -> "The API key may not do this: " + api.getMessage()
                    + ". Use a key with more scopes, or an all-access key.";
            case ApiException api -> api.getMessage() + " (HTTP " + api.status() + ")";
            case ServerUnreachableException unreachable when certificateProblem(unreachable) ->
                    "The server's certificate could not be verified (" + rootMessage(unreachable) + "). If you trust"
                            + " this server, tick \"Skip certificate check\" (what cli.insecure does for the CLI).";
            case ServerUnreachableException unreachable -> unreachable.getMessage();
            case LocalServerNotFoundException local -> local.getMessage()
                    + ". Start one with 'svc serve', or connect to a remote server with its address and an API key.";
            case ClientSettingsException settings -> settings.getMessage();
            case InvalidInputException input -> input.getMessage();
            default -> "Unexpected " + failure.getClass().getSimpleName() + ": " + failure.getMessage();
        };
    }

    private static boolean certificateProblem(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SSLException || cause instanceof CertificateException) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getMessage();
    }

    /** Input the window refuses before calling the server. */
    public static final class InvalidInputException extends RuntimeException {

        public InvalidInputException(String message) {
            super(message);
        }
    }
}
