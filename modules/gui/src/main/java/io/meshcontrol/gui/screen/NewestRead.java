package io.meshcontrol.gui.screen;

import java.util.function.Consumer;

/**
 * Of reads of one thing that overlap (a read after an action, and another after the change it made), only the newest
 * one's answer is shown: an older answer that arrives last would otherwise replace a newer one. Used from the
 * JavaFX thread only, like {@link Background}.
 */
public final class NewestRead {

    private long newest;

    /** Starts a read; what it wraps with {@link Read#ifNewest} runs only if no read was started after it. */
    public Read start() {
        return new Read(++newest);
    }

    /** One read, numbered in the order reads were started. */
    public final class Read {

        private final long number;

        private Read(long number) {
            this.number = number;
        }

        public <T> Consumer<T> ifNewest(Consumer<T> action) {
            return value -> {
                if (number == newest) {
                    action.accept(value);
                }
            };
        }
    }
}
