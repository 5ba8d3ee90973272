package io.meshcontrol.core.policy;

/** A policy that cannot be used, with the reason in the vendor's words where the vendor has words for it. */
public final class PolicyException extends RuntimeException {

    public PolicyException(String message) {
        super(message);
    }
}
