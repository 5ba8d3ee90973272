package io.meshcontrol.gui.notify;

/**
 * Something that waits for an administrator, shown in the window's notification list.
 *
 * @param kind what it is, and so which screen opens it
 * @param id the item's id on that screen (node id, access request id, webhook id, relay region id)
 * @param text one line for the list
 */
public record Notice(Kind kind, String id, String text) {

    /** The kinds, each with the screen (tab title) that shows its items. */
    public enum Kind {
        MACHINE_WAITING("Machines"),
        ACCESS_REQUEST("Access requests"),
        WEBHOOK_FAILING("Webhooks"),
        RELAY_DOWN("Relays");

        private final String screen;

        Kind(String screen) {
            this.screen = screen;
        }

        public String screen() {
            return screen;
        }
    }

    @Override
    public String toString() {
        return text;
    }
}
