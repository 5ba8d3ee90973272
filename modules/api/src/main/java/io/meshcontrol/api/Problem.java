package io.meshcontrol.api;

/**
 * RFC 7807 problem details, the body of every {@code /api/v1} error ({@code application/problem+json}).
 *
 * @param errorId set on 500 answers: the same id stands in the server log next to the failure
 */
public record Problem(String type, String title, int status, String detail, String instance, String errorId) {

    public static final String MEDIA_TYPE = "application/problem+json";

    public static Problem of(int status, String title, String detail) {
        return new Problem("about:blank", title, status, detail, null, null);
    }
}
