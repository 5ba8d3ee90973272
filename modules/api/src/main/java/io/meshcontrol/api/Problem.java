package io.meshcontrol.api;

/**
 * RFC 7807 problem details, the body of every {@code /api/v1} error ({@code application/problem+json}).
 *
 * @param errorId set on 500 answers: the same id stands in the server log next to the failure
 * @param line where a refused text (a policy) has the problem: its 1-based line, absent when it is at no one place
 * @param column with {@code line}: the 1-based column
 */
public record Problem(String type, String title, int status, String detail, String instance, String errorId,
        Integer line, Integer column) {

    public static final String MEDIA_TYPE = "application/problem+json";

    public Problem(String type, String title, int status, String detail, String instance, String errorId) {
        this(type, title, status, detail, instance, errorId, null, null);
    }

    public static Problem of(int status, String title, String detail) {
        return new Problem("about:blank", title, status, detail, null, null);
    }

    /** The detail, and where the problem is when the detail does not say: what a person reads (the CLI's line). */
    public String readable() {
        String text = detail == null || detail.isBlank() ? title : detail;
        return line == null || text.contains("line " + line) ? text
                : text + " (line " + line + ", column " + column + ")";
    }
}
