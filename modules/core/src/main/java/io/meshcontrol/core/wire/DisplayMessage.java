package io.meshcontrol.core.wire;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A health message the client shows, in {@code MapResponse.DisplayMessages} (capver 117). Go:
 * {@code tailcfg.DisplayMessage}.
 *
 * @param title a short title; always written
 * @param text the message; always written
 * @param severity "high", "medium" or "low"; always written
 * @param impactsConnectivity whether it means the network does not work; absent means false
 * @param primaryAction a button with a link; absent when none
 */
public record DisplayMessage(
        @JsonProperty("Title") String title,
        @JsonProperty("Text") String text,
        @JsonProperty("Severity") String severity,
        @JsonProperty("ImpactsConnectivity") @OmitEmpty boolean impactsConnectivity,
        @JsonProperty("PrimaryAction") @OmitNull Action primaryAction) {

    public DisplayMessage {
        title = Copies.text(title);
        text = Copies.text(text);
        severity = Copies.text(severity);
    }

    /**
     * A link button under a message. Go: {@code tailcfg.DisplayMessageAction}.
     *
     * @param url where the button leads; always written
     * @param label the button's text; always written
     */
    public record Action(@JsonProperty("URL") String url, @JsonProperty("Label") String label) {

        public Action {
            url = Copies.text(url);
            label = Copies.text(label);
        }
    }
}
