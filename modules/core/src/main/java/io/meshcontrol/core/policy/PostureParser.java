package io.meshcontrol.core.policy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The {@code postures} section ({@code "posture:name": ["ip:country IN ['US']", ...]}) and the posture names rules
 * refer to ({@code srcPosture}, {@code defaultSrcPosture}).
 */
final class PostureParser {

    private static final Pattern NAME = Pattern.compile("posture:[A-Za-z0-9][A-Za-z0-9._-]*");
    private static final Pattern ATTRIBUTE = Pattern.compile("[A-Za-z][A-Za-z0-9_-]*:[A-Za-z][A-Za-z0-9_.-]*");
    /** {@code attribute OPERATOR rest}; longer operators first so {@code NOT IN} is not read as {@code NOT}... */
    private static final Pattern CONDITION = Pattern.compile(
            "\\s*(\\S+)\\s+(NOT IN|IN|IS SET|NOT SET|==|!=|<=|>=|<|>)\\s*(.*?)\\s*", Pattern.CASE_INSENSITIVE);
    private static final Pattern QUOTED = Pattern.compile("'([^']*)'|\"([^\"]*)\"");

    private PostureParser() {
    }

    static Map<String, DevicePosture> postures(JsonNode node) {
        Map<String, DevicePosture> postures = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> entry : PolicyParser.stringLists(node, "postures").entrySet()) {
            String name = entry.getKey();
            if (!NAME.matcher(name).matches()) {
                throw new PolicyException("postures[\"" + name + "\"]: posture names must start with posture:");
            }
            List<DevicePosture.Condition> conditions = new ArrayList<>();
            for (String text : entry.getValue()) {
                conditions.add(condition(text, "postures[\"" + name + "\"]: "));
            }
            postures.put(name, new DevicePosture(name, conditions));
        }
        return postures;
    }

    /** Posture names as a rule or {@code defaultSrcPosture} lists them: each must be defined. */
    static List<String> references(JsonNode node, String field, Map<String, DevicePosture> postures) {
        List<String> names = PolicyParser.strings(node, field);
        for (String name : names) {
            if (!postures.containsKey(name)) {
                throw new PolicyException(field + ": posture \"" + name + "\" not found");
            }
        }
        return names;
    }

    static DevicePosture.Condition condition(String text, String where) {
        Matcher matcher = CONDITION.matcher(text);
        if (!matcher.matches()) {
            throw new PolicyException(where + "\"" + text + "\": want \"attribute OPERATOR value\", such as"
                    + " \"ip:country IN ['US', 'CA']\"");
        }
        String attribute = matcher.group(1);
        if (!ATTRIBUTE.matcher(attribute).matches()) {
            throw new PolicyException(where + "\"" + text + "\": \"" + attribute + "\" is not a posture attribute");
        }
        String operatorText = matcher.group(2).toUpperCase(java.util.Locale.ROOT);
        DevicePosture.Operator operator = null;
        for (DevicePosture.Operator candidate : DevicePosture.Operator.values()) {
            if (candidate.text.equals(operatorText)) {
                operator = candidate;
            }
        }
        String rest = matcher.group(3);
        List<String> values = switch (operator) {
            case IS_SET, NOT_SET -> {
                if (!rest.isEmpty()) {
                    throw new PolicyException(where + "\"" + text + "\": " + operator.text + " takes no value");
                }
                yield List.of();
            }
            case IN, NOT_IN -> list(rest, text, where);
            default -> List.of(single(rest, text, where));
        };
        if (operator.ordering() && !attribute.equals("node:tsVersion") && !attribute.equals("node:osVersion")) {
            throw new PolicyException(where + "\"" + text + "\": " + operator.text
                    + " compares versions: only node:tsVersion and node:osVersion");
        }
        return new DevicePosture.Condition(attribute, operator, values);
    }

    private static String single(String rest, String text, String where) {
        Matcher quoted = QUOTED.matcher(rest);
        if (!quoted.matches()) {
            throw new PolicyException(where + "\"" + text + "\": the value must be quoted: 'value'");
        }
        return quoted.group(1) != null ? quoted.group(1) : quoted.group(2);
    }

    private static List<String> list(String rest, String text, String where) {
        if (!rest.startsWith("[") || !rest.endsWith("]")) {
            throw new PolicyException(where + "\"" + text + "\": IN takes a list: ['a', 'b']");
        }
        String inner = rest.substring(1, rest.length() - 1).strip();
        List<String> values = new ArrayList<>();
        if (inner.isEmpty()) {
            return values;
        }
        for (String item : inner.split(",")) {
            values.add(single(item.strip(), text, where));
        }
        return values;
    }
}
