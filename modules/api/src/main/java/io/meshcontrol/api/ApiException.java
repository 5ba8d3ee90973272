package io.meshcontrol.api;

/** The server refused a request; {@link #problem()} says why. */
public final class ApiException extends RuntimeException {

    private final Problem problem;

    public ApiException(Problem problem) {
        super(problem.readable());
        this.problem = problem;
    }

    public Problem problem() {
        return problem;
    }

    public int status() {
        return problem.status();
    }
}
