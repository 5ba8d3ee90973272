package io.meshcontrol.core.policy;

import io.meshcontrol.core.GoDuration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** The {@code ssh} section, with the vendor's checks and error texts. */
final class SshParser {

    /** The longest {@code checkPeriod} the vendor accepts: a week. */
    static final Duration MAX_CHECK_PERIOD = Duration.ofHours(168);

    private final References refs;
    private final java.util.Map<String, DevicePosture> postures;

    SshParser(References refs, java.util.Map<String, DevicePosture> postures) {
        this.refs = refs;
        this.postures = postures;
    }

    List<SshRule> rules(List<JsonNode> entries) {
        List<SshRule> rules = new ArrayList<>();
        for (JsonNode entry : entries) {
            String action = PolicyParser.string(entry.path("action"), "action").orElse("").strip();
            if (action.isEmpty()) {
                throw new PolicyException("action must be specified");
            }
            if (!action.equals("accept") && !action.equals("check")) {
                throw new PolicyException("\"" + action + "\" is not a valid action");
            }
            List<String> users = PolicyParser.strings(entry.path("users"), "users").stream().map(String::strip).toList();
            if (users.isEmpty()) {
                throw new PolicyException("users must be specified");
            }
            for (String user : users) {
                if (user.isEmpty() || user.equals("*")) {
                    throw new PolicyException("user \"" + user + "\" is not valid");
                }
            }
            List<Alias> src = new ArrayList<>();
            for (String text : PolicyParser.strings(entry.path("src"), "src")) {
                src.add(refs.source(text));
            }
            List<Alias> dst = new ArrayList<>();
            for (String text : PolicyParser.strings(entry.path("dst"), "dst")) {
                dst.add(destination(text));
            }
            RuleParser.checkSelf(src, dst, false);
            List<String> acceptEnv = PolicyParser.strings(entry.path("acceptEnv"), "acceptEnv");
            if (acceptEnv.stream().anyMatch(String::isEmpty)) {
                throw new PolicyException("acceptEnv values cannot be empty");
            }
            Duration checkPeriod = checkPeriod(PolicyParser.string(entry.path("checkPeriod"), "checkPeriod").orElse(null));
            List<Alias> recorders = new ArrayList<>();
            for (String text : PolicyParser.strings(entry.path("recorder"), "recorder")) {
                Alias recorder = refs.source(text.strip());
                if (!(recorder instanceof Alias.Tag)) {
                    throw new PolicyException("recorder \"" + text + "\" must be a tag");
                }
                recorders.add(recorder);
            }
            JsonNode enforce = entry.path("enforceRecorder");
            if (!enforce.isMissingNode() && !enforce.isNull() && !enforce.isBoolean()) {
                throw new PolicyException("enforceRecorder must be true or false");
            }
            if (enforce.asBoolean(false) && recorders.isEmpty()) {
                throw new PolicyException("enforceRecorder needs a recorder");
            }
            rules.add(new SshRule(action.equals("check"), src, dst, users, checkPeriod, acceptEnv, recorders,
                    enforce.asBoolean(false), PostureParser.references(entry.path("srcPosture"), "srcPosture",
                    postures)));
        }
        return List.copyOf(rules);
    }

    /** Machines only: users, groups, tags and the machine autogroups; addresses and hosts are refused. */
    private Alias destination(String text) {
        Alias alias = refs.destination(text);
        boolean machines = switch (alias) {
            case Alias.User u -> true;
            case Alias.Group g -> true;
            case Alias.Tag t -> true;
            case Alias.Auto(AutoGroup group) -> group == AutoGroup.SELF || group == AutoGroup.MEMBER
                    || group == AutoGroup.TAGGED || group.role() != null;
            default -> false;
        };
        if (!machines) {
            throw new PolicyException("invalid dst \"" + text + "\"");
        }
        return alias;
    }

    /** Null for the default; {@link Duration#ZERO} for {@code always}. */
    private static Duration checkPeriod(String text) {
        if (text == null) {
            return null;
        }
        if (text.equals("always")) {
            return Duration.ZERO;
        }
        Duration period;
        try {
            period = GoDuration.parse(text);
        } catch (IllegalArgumentException e) {
            throw new PolicyException("time: invalid duration \"" + text + "\""); // Go's time.ParseDuration says so
        }
        if (period.isNegative()) {
            throw new PolicyException("checkPeriod " + GoDuration.goString(period) + " must be a positive duration");
        }
        if (period.compareTo(MAX_CHECK_PERIOD) > 0) {
            throw new PolicyException("checkPeriod " + GoDuration.goString(period) + " is above the max (168h)");
        }
        return period;
    }
}
