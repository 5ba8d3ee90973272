package io.meshcontrol.core.policy;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntFunction;

/**
 * One answer per machine of a compilation (its filter, its SSH policy), made on first request and kept, without a
 * lock. A ConcurrentHashMap's {@code computeIfAbsent} held a bin's lock while building an answer, and 10,000 streams
 * asking at once after a policy change queued on those locks. Two threads asking for the same machine at once may
 * both build it; the answers are equal, and each stream asks for its own machine.
 */
final class PerMachine<T> {

    private final AtomicReferenceArray<T> answers;
    private final IntFunction<T> answer;

    PerMachine(int machines, IntFunction<T> answer) {
        this.answers = new AtomicReferenceArray<>(machines);
        this.answer = answer;
    }

    T get(int machine) {
        T kept = answers.get(machine);
        if (kept == null) {
            kept = answer.apply(machine);
            answers.set(machine, kept);
        }
        return kept;
    }
}
