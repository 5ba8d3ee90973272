package io.meshcontrol.core.policy;

import io.meshcontrol.core.net.IpBlock;

/**
 * One name in a rule's source or destination, classified by its form. Whether it names something the policy
 * defines is checked by the parser; what it covers is decided at compilation against the network's nodes.
 */
public sealed interface Alias {

    /** The text as written. */
    String text();

    /** {@code *}: every node (and, as a source, every approved subnet). */
    record Wildcard() implements Alias {
        @Override
        public String text() {
            return "*";
        }
    }

    /** A user by login: {@code alice@example.com}, or {@code alice@} for a user without e-mail. */
    record User(String login) implements Alias {
        @Override
        public String text() {
            return login;
        }
    }

    /** {@code user:*@example.com}: every user whose e-mail is in that domain. */
    record Domain(String domain) implements Alias {
        @Override
        public String text() {
            return "user:*@" + domain;
        }
    }

    record Group(String name) implements Alias {
        @Override
        public String text() {
            return name;
        }
    }

    record Tag(String name) implements Alias {
        @Override
        public String text() {
            return name;
        }
    }

    record Auto(AutoGroup group) implements Alias {
        @Override
        public String text() {
            return group.text();
        }
    }

    /** A name from the {@code hosts} section. */
    record Host(String name) implements Alias {
        @Override
        public String text() {
            return name;
        }
    }

    /** An address, prefix or range written in the rule itself. */
    record Address(String text, IpBlock block) implements Alias {
    }

    /**
     * Classifies {@code text}. A bare word that is no address is a host name (the parser checks it is defined).
     *
     * @throws PolicyException for an unknown {@code autogroup:} or an empty alias
     */
    static Alias parse(String text) {
        if (text.equals("*")) {
            return new Wildcard();
        }
        if (text.isEmpty()) {
            throw new PolicyException("\"\": invalid address");
        }
        if (text.startsWith(AutoGroup.PREFIX)) {
            return new Auto(AutoGroup.parse(text).orElseThrow(
                    () -> new PolicyException("autogroup \"" + text + "\" is not valid")));
        }
        if (text.startsWith("group:")) {
            return new Group(text);
        }
        if (text.startsWith("tag:")) {
            return new Tag(text);
        }
        if (text.startsWith("user:*@")) {
            return new Domain(text.substring("user:*@".length()));
        }
        if (text.contains("@")) {
            return new User(text);
        }
        String literal = text.startsWith("[") && text.endsWith("]") ? text.substring(1, text.length() - 1) : text;
        if (looksLikeAddress(literal)) {
            try {
                return new Address(literal, IpBlock.parse(literal));
            } catch (IllegalArgumentException e) {
                throw new PolicyException("\"" + text + "\": invalid address");
            }
        }
        if (!text.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '-' || c == '_' || c == '.')) {
            throw new PolicyException("\"" + text + "\": invalid address");
        }
        return new Host(text);
    }

    private static boolean looksLikeAddress(String text) {
        return text.contains(":") || text.contains("/") || (!text.isEmpty() && Character.isDigit(text.charAt(0))
                && text.chars().allMatch(c -> Character.isDigit(c) || c == '.' || c == '-'));
    }
}
