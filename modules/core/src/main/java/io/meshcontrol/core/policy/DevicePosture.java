package io.meshcontrol.core.policy;

import java.util.List;
import java.util.Locale;

/**
 * A {@code postures} entry: a machine satisfies it when it meets every condition. Rules name postures in
 * {@code srcPosture} (or the policy's {@code defaultSrcPosture}) to admit only sources that satisfy one of them.
 *
 * @param name {@code posture:...}
 */
public record DevicePosture(String name, List<Condition> conditions) {

    public DevicePosture {
        conditions = List.copyOf(conditions);
    }

    public boolean satisfiedBy(MachineFacts facts) {
        return conditions.stream().allMatch(condition -> condition.satisfiedBy(facts));
    }

    public enum Operator {
        EQUAL("=="), NOT_EQUAL("!="), IN("IN"), NOT_IN("NOT IN"), LESS("<"), LESS_OR_EQUAL("<="), GREATER(">"),
        GREATER_OR_EQUAL(">="), IS_SET("IS SET"), NOT_SET("NOT SET");

        final String text;

        Operator(String text) {
            this.text = text;
        }

        boolean ordering() {
            return this == LESS || this == LESS_OR_EQUAL || this == GREATER || this == GREATER_OR_EQUAL;
        }
    }

    /**
     * One condition, {@code ip:country IN ['US', 'CA']}. An attribute the machine has no value for (not reported,
     * not placed, or an attribute this server does not know, such as a posture provider's) satisfies only
     * {@code NOT SET}.
     *
     * @param values the value, or the list's values ({@code IN}, {@code NOT IN}); empty for {@code IS SET} and
     *     {@code NOT SET}
     */
    public record Condition(String attribute, Operator operator, List<String> values) {

        public Condition {
            values = List.copyOf(values);
        }

        boolean satisfiedBy(MachineFacts facts) {
            String value = facts.attribute(attribute);
            if (operator == Operator.NOT_SET) {
                return value == null;
            }
            if (value == null) {
                return false;
            }
            return switch (operator) {
                case IS_SET -> true;
                case EQUAL, IN -> values.stream().anyMatch(v -> same(value, v));
                case NOT_EQUAL, NOT_IN -> values.stream().noneMatch(v -> same(value, v));
                case LESS -> compare(value, values.getFirst()) < 0;
                case LESS_OR_EQUAL -> compare(value, values.getFirst()) <= 0;
                case GREATER -> compare(value, values.getFirst()) > 0;
                case GREATER_OR_EQUAL -> compare(value, values.getFirst()) >= 0;
                case NOT_SET -> false;
            };
        }

        /** Countries and operating systems compare without case ({@code 'us'}, {@code 'macOS'}). */
        private boolean same(String value, String wanted) {
            return attribute.equals("ip:city") ? value.equals(wanted)
                    : value.toLowerCase(Locale.ROOT).equals(wanted.toLowerCase(Locale.ROOT));
        }

        /**
         * Versions compare by their dotted numbers ({@code 1.80.3} > {@code 1.8}); a build suffix after a dash is
         * ignored, a missing component counts as 0.
         */
        static int compare(String version, String other) {
            int[] a = numbers(version);
            int[] b = numbers(other);
            for (int i = 0; i < Math.max(a.length, b.length); i++) {
                int x = i < a.length ? a[i] : 0;
                int y = i < b.length ? b[i] : 0;
                if (x != y) {
                    return Integer.compare(x, y);
                }
            }
            return 0;
        }

        private static int[] numbers(String version) {
            String core = version.strip();
            int dash = core.indexOf('-');
            core = dash < 0 ? core : core.substring(0, dash);
            String[] parts = core.split("\\.");
            int[] numbers = new int[parts.length];
            for (int i = 0; i < parts.length; i++) {
                String digits = parts[i].replaceAll("[^0-9].*$", "");
                numbers[i] = digits.isEmpty() ? 0 : Integer.parseInt(digits.length() > 9 ? digits.substring(0, 9) : digits);
            }
            return numbers;
        }
    }
}
