package io.meshcontrol.core.config;

import io.meshcontrol.core.GoDuration;
import io.meshcontrol.core.net.IpAddress;
import io.meshcontrol.core.net.IpPrefix;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/** The per-key rules the schema attaches to keys. Each answers a reason that ends with the offending value. */
final class Checks {

    private static final Pattern DOMAIN = io.meshcontrol.core.address.DnsLabels.DOMAIN;

    private Checks() {
    }

    /** An absolute {@code http://} or {@code https://} URL naming a host. */
    static ConfigKey.Check httpUrl() {
        ConfigKey.Check check = value -> text(value).flatMap(Checks::httpUrlProblem);
        return ConfigKey.Check.described("an absolute http:// or https:// URL with a host", check);
    }

    /**
     * An ACME directory: an http(s) URL, or one of acme4j's provider URIs ({@code acme://letsencrypt.org/staging},
     * {@code acme://pebble/localhost:14000}), which also bring the CA's own trust settings.
     */
    static ConfigKey.Check acmeUrl() {
        ConfigKey.Check check = value -> text(value).flatMap(text -> text.toLowerCase(Locale.ROOT).startsWith("acme://")
                ? (text.length() > "acme://".length() ? Optional.<String>empty()
                        : Optional.of("must name an ACME provider after acme:// (got " + Quote.of(text) + ")"))
                : httpUrlProblem(text));
        return ConfigKey.Check.described("an absolute http(s) URL, or an acme:// provider URI", check);
    }

    /** Like {@link #httpUrl()} for every element of a list. */
    static ConfigKey.Check httpUrls() {
        ConfigKey.Check check = value -> eachOf(value, Checks::httpUrlProblem);
        return ConfigKey.Check.described("absolute http:// or https:// URLs with a host", check);
    }

    /** Every element of a list is a file path the platform accepts (no NUL character, say). */
    static ConfigKey.Check filePaths() {
        ConfigKey.Check check = value -> eachOf(value, Checks::filePathProblem);
        return ConfigKey.Check.described("file paths", check);
    }

    static Optional<String> filePathProblem(String text) {
        try {
            Path.of(text);
            return Optional.empty();
        } catch (InvalidPathException e) {
            return Optional.of("is not a valid file path (got " + Quote.of(text) + ")");
        }
    }

    /** A listen address in {@code host:port} form. */
    static ConfigKey.Check hostPort() {
        ConfigKey.Check check = value -> text(value).flatMap(text -> {
            try {
                HostPort.parse(text);
                return Optional.empty();
            } catch (IllegalArgumentException e) {
                return Optional.of(e.getMessage());
            }
        });
        return ConfigKey.Check.described(
                "host:port (IPv6 hosts in brackets; empty host: every interface; port may be http or https)", check);
    }

    /** A CIDR prefix inside {@code range}, or the empty string (that address family is then not used). */
    static ConfigKey.Check prefixWithin(String range) {
        IpPrefix outer = IpPrefix.parse(range);
        ConfigKey.Check check = value -> text(value).filter(text -> !text.isEmpty()).flatMap(text -> {
            IpPrefix prefix;
            try {
                prefix = IpPrefix.parse(text);
            } catch (IllegalArgumentException e) {
                return Optional.of(prefixProblem(text));
            }
            if (!outer.contains(prefix)) {
                return Optional.of("must be inside " + range + ", the range clients accept (got " + Quote.of(text) + ")");
            }
            if (!prefix.masked().equals(prefix)) {
                return Optional.of("must not have address bits set after the prefix length (got " + Quote.of(text) + ")");
            }
            return Optional.empty();
        });
        return ConfigKey.Check.described(
                "a CIDR prefix inside " + range + ", or empty (that address family off)", check);
    }

    /** What is wrong with text that is no prefix, in the part a person must fix. */
    private static String prefixProblem(String text) {
        int slash = text.lastIndexOf('/');
        if (slash < 0) {
            return "must be a CIDR prefix such as 100.64.0.0/10 (got " + Quote.of(text) + ")";
        }
        return ipLiteral(text.substring(0, slash)).isEmpty() ? "is not an IP prefix: " + Quote.of(text)
                : "has an invalid prefix length: " + Quote.of(text);
    }

    /** An IPv4 address literal (when set). */
    static ConfigKey.Check ipv4() {
        ConfigKey.Check check = value -> text(value).filter(text -> ipv4Literal(text).isEmpty())
                .map(text -> "must be an IPv4 address (got " + Quote.of(text) + ")");
        return ConfigKey.Check.described("an IPv4 address", check);
    }

    /** An IPv6 address literal (when set). */
    static ConfigKey.Check ipv6() {
        ConfigKey.Check check = value -> text(value).filter(text -> ipv6Literal(text).isEmpty())
                .map(text -> "must be an IPv6 address (got " + Quote.of(text) + ")");
        return ConfigKey.Check.described("an IPv6 address", check);
    }

    /** Every element is an IP address literal. */
    static ConfigKey.Check ipAddresses() {
        ConfigKey.Check check = value -> eachOf(value, text -> ipLiteral(text).isPresent()
                ? Optional.empty()
                : Optional.of("must be IP addresses; " + Quote.of(text) + " is not one"));
        return ConfigKey.Check.described("IP addresses", check);
    }

    /** Every element is a resolver: an IP address, or a DNS-over-HTTPS URL. */
    static ConfigKey.Check resolvers() {
        ConfigKey.Check check = value -> eachOf(value, Checks::resolverProblem);
        return ConfigKey.Check.described("IP addresses or https:// DNS-over-HTTPS URLs", check);
    }

    /** A map from domain to resolvers, as split DNS is written. */
    static ConfigKey.Check splitResolvers() {
        ConfigKey.Check check = value -> {
            for (Map.Entry<?, ?> route : ((Map<?, ?>) value).entrySet()) {
                String domain = (String) route.getKey();
                if (!DOMAIN.matcher(domain).matches()) {
                    return Optional.of("must map domain names to resolvers; " + Quote.of(domain) + " is not a domain name");
                }
                Optional<String> problem = eachOf(route.getValue(), Checks::resolverProblem);
                if (problem.isPresent()) {
                    return Optional.of(domain + ": " + problem.get());
                }
            }
            return Optional.empty();
        };
        return ConfigKey.Check.described("domain names, each to resolvers (IP addresses or https:// URLs)", check);
    }

    /** A domain name without the trailing dot, or the empty string. */
    static ConfigKey.Check domainOrEmpty() {
        ConfigKey.Check check = value -> text(value).filter(text -> !text.isEmpty() && !DOMAIN.matcher(text).matches())
                .map(text -> "must be a domain name without a trailing dot (got " + Quote.of(text) + ")");
        return ConfigKey.Check.described("a domain name without the trailing dot, or empty", check);
    }

    /** Base64 text (a TSIG secret), or unset. */
    static ConfigKey.Check base64() {
        ConfigKey.Check check = value -> text(value).flatMap(text -> {
            try {
                return java.util.Base64.getDecoder().decode(text).length == 0
                        ? Optional.of("must not be empty") : Optional.<String>empty();
            } catch (IllegalArgumentException e) {
                return Optional.of("must be base64 (" + e.getMessage() + ")");
            }
        });
        return ConfigKey.Check.described("base64 text", check);
    }

    /** Every element is a domain name. */
    static ConfigKey.Check domains() {
        ConfigKey.Check check = value -> eachOf(value, text -> DOMAIN.matcher(text).matches()
                ? Optional.empty()
                : Optional.of("must be domain names; " + Quote.of(text) + " is not one"));
        return ConfigKey.Check.described("domain names", check);
    }

    /** DNS records with {@code name}, {@code type} (A or AAAA) and a {@code value} address of that family. */
    static ConfigKey.Check dnsRecords() {
        ConfigKey.Check check = value -> {
            List<?> records = (List<?>) value;
            for (int i = 0; i < records.size(); i++) {
                Map<?, ?> record = (Map<?, ?>) records.get(i);
                Object name = record.get("name");
                Object type = record.get("type");
                Object address = record.get("value");
                String where = "record " + (i + 1) + " ";
                if (!(name instanceof String n) || !DOMAIN.matcher(n).matches()) {
                    return Optional.of(where + "needs a domain name in \"name\" (got " + record + ")");
                }
                if (!"A".equals(type) && !"AAAA".equals(type)) {
                    return Optional.of(where + "needs \"type\" A or AAAA (got " + record + ")");
                }
                boolean matches = address instanceof String a
                        && ("A".equals(type) ? ipv4Literal(a) : ipv6Literal(a)).isPresent();
                if (!matches) {
                    return Optional.of(where + "needs an " + ("A".equals(type) ? "IPv4" : "IPv6")
                            + " address in \"value\" (got " + record + ")");
                }
                for (Object field : record.keySet()) {
                    if (!List.of("name", "type", "value").contains(field)) {
                        return Optional.of(where + "has an unknown field " + Quote.of((String) field));
                    }
                }
            }
            return Optional.empty();
        };
        return ConfigKey.Check.described(
                "records of name, type (A or AAAA) and value (an address of that family)", check);
    }

    /** A duration of at least {@code minimum}. */
    static ConfigKey.Check atLeast(Duration minimum) {
        ConfigKey.Check check = value -> ((Duration) value).compareTo(minimum) < 0
                ? Optional.of("must be at least " + GoDuration.format(minimum)
                        + " (got " + Quote.of(GoDuration.format((Duration) value)) + ")")
                : Optional.empty();
        return ConfigKey.Check.described("at least " + GoDuration.format(minimum), check);
    }

    /** Zero (off) or at least {@code minimum}. */
    static ConfigKey.Check zeroOrAtLeast(Duration minimum) {
        ConfigKey.Check atLeast = atLeast(minimum);
        ConfigKey.Check check = value -> ((Duration) value).isZero() ? Optional.empty() : atLeast.problem(value);
        return ConfigKey.Check.described("0 (off) or at least " + GoDuration.format(minimum), check);
    }

    /** Text that is not empty. */
    static ConfigKey.Check nonEmpty() {
        ConfigKey.Check check = value -> text(value).filter(String::isBlank).map(text -> "must not be empty");
        return ConfigKey.Check.described("not empty", check);
    }

    /** A whole number from {@code min} to {@code max}. */
    static ConfigKey.Check between(int min, int max) {
        ConfigKey.Check check = value -> {
            int number = (Integer) value;
            return number < min || number > max
                    ? Optional.of("must be from " + min + " to " + max + " (got " + number + ")")
                    : Optional.empty();
        };
        return ConfigKey.Check.described(
                max == Integer.MAX_VALUE ? "at least " + min : "from " + min + " to " + max, check);
    }

    /** An e-mail address, or the empty string. Only the shape: the mail server has the last word. */
    static ConfigKey.Check emailOrEmpty() {
        ConfigKey.Check check = value -> text(value).filter(text -> !text.isEmpty() && !text.matches("[^@\\s]+@[^@\\s]+"))
                .map(text -> "must be an e-mail address (got " + Quote.of(text) + ")");
        return ConfigKey.Check.described("an e-mail address, or empty", check);
    }

    /** {@code cli.address}: a URL, or a bare host (with an optional port) that is taken as https. */
    static ConfigKey.Check cliAddress() {
        ConfigKey.Check check = value -> text(value).flatMap(text -> httpUrlProblem(MeshConfig.Cli.withScheme(text)));
        return ConfigKey.Check.described("an http(s) URL, or a host with an optional port (then https)", check);
    }

    /** An IP address as configuration writes one: no zone ({@code %eth0}), never looked up in DNS. */
    static Optional<IpAddress> ipLiteral(String text) {
        return IpAddress.tryParse(text).filter(address -> address.zone().isEmpty());
    }

    static Optional<IpAddress> ipv4Literal(String text) {
        return ipLiteral(text).filter(IpAddress::isIpv4);
    }

    /** An IPv6 literal, IPv4-mapped ones ({@code ::ffff:192.0.2.1}) included. */
    static Optional<IpAddress> ipv6Literal(String text) {
        return ipLiteral(text).filter(address -> !address.isIpv4());
    }

    private static Optional<String> text(Object value) {
        if (value instanceof Optional<?> optional) {
            return optional.map(String.class::cast);
        }
        return Optional.of((String) value);
    }

    private static Optional<String> eachOf(Object list, Function<String, Optional<String>> check) {
        for (Object element : (List<?>) list) {
            Optional<String> problem = check.apply((String) element);
            if (problem.isPresent()) {
                return problem;
            }
        }
        return Optional.empty();
    }

    private static Optional<String> resolverProblem(String text) {
        if (ipLiteral(text).isPresent()) {
            return Optional.empty();
        }
        if (text.startsWith("https://") && httpUrlProblem(text).isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("must be IP addresses or https:// resolver URLs; " + Quote.of(text) + " is neither");
    }

    private static Optional<String> httpUrlProblem(String text) {
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            return Optional.of("must be an absolute http:// or https:// URL (got " + Quote.of(text) + ")");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return Optional.of("must be an absolute http:// or https:// URL (got " + Quote.of(text) + ")");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            return Optional.of("must name a host (got " + Quote.of(text) + ")");
        }
        return Optional.empty();
    }
}
