package io.meshcontrol.notify;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The recipients of an e-mail endpoint, {@code mailto:} followed by comma-separated addresses; the word
 * {@code approvers} stands for every user whose role may decide access requests, resolved at send time.
 *
 * @param entries the addresses and the word {@code approvers}, as listed
 */
record MailRecipients(List<String> entries, Optional<String> problem) {

    static final String APPROVERS = "approvers";
    private static final Pattern ADDRESS = Pattern.compile("[^@\\s,<>\"]+@[^@\\s,<>\"]+\\.[^@\\s,<>\"]+");

    static MailRecipients parse(String url) {
        if (url == null || !url.regionMatches(true, 0, "mailto:", 0, 7)) {
            return new MailRecipients(List.of(), Optional.of("an e-mail endpoint's URL is mailto: followed by "
                    + "comma-separated addresses or the word approvers"));
        }
        List<String> entries = java.util.Arrays.stream(url.substring(7).split(","))
                .map(String::trim).filter(s -> !s.isEmpty()).toList();
        if (entries.isEmpty()) {
            return new MailRecipients(entries, Optional.of("the mailto: URL lists no recipient"));
        }
        for (String entry : entries) {
            if (!entry.equals(APPROVERS) && !isAddress(entry)) {
                return new MailRecipients(entries, Optional.of("\"" + entry + "\" is not an e-mail address"));
            }
        }
        return new MailRecipients(entries, Optional.empty());
    }

    static boolean isAddress(String text) {
        return text != null && ADDRESS.matcher(text).matches();
    }
}
