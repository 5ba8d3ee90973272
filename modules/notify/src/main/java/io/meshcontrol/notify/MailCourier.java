package io.meshcontrol.notify;

import io.meshcontrol.core.config.MeshConfig;
import io.meshcontrol.core.model.PendingDelivery;
import io.meshcontrol.core.model.User;
import io.meshcontrol.core.model.WebhookTarget;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.SendFailedException;
import jakarta.mail.Session;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.eclipse.angus.mail.smtp.SMTPTransport;
import tools.jackson.databind.JsonNode;

/**
 * Delivers to e-mail endpoints with Jakarta Mail: one message per event (a delivery holds one), subject the network
 * name and the message, body the message, type, time and data JSON. Recipients are resolved at send time
 * ({@code approvers}: the people who decide access requests, by e-mail), each mailed once, bad addresses skipped.
 * Authentication is PLAIN only inside TLS, CRAM-MD5 otherwise or when it is all the server offers; a server that
 * offers only LOGIN is refused with an error saying so. Outcomes follow the spec's e-mail rows: nobody to mail is
 * final; a lookup, connection or authentication failure is retried; a rejected sender, recipient or message is
 * final.
 */
final class MailCourier implements Courier {

    /** The status a delivery records for mail the server took (the SMTP code of the final reply). */
    static final int SENT = 250;

    private final MeshConfig.Smtp smtp;
    private final Tailnet tailnet;
    private final Supplier<Collection<User>> approvers;
    private final Properties extra;

    /** @param extra further Jakarta Mail properties (tests trust their server's certificate) */
    MailCourier(MeshConfig.Smtp smtp, Tailnet tailnet, Supplier<Collection<User>> approvers, Properties extra) {
        this.smtp = smtp;
        this.tailnet = tailnet;
        this.approvers = approvers;
        this.extra = extra;
    }

    @Override
    public Outcome attempt(WebhookTarget target, PendingDelivery delivery) {
        if (!smtp.enabled()) {
            return Outcome.retry(0, "no mail server: notifications.smtp.host is unset");
        }
        List<InternetAddress> recipients;
        try {
            recipients = recipients(MailRecipients.parse(target.endpoint().url()).entries());
        } catch (RuntimeException e) {
            return Outcome.retry(0, "recipient lookup failed: " + e.getMessage());
        }
        if (recipients.isEmpty()) {
            return Outcome.fail(0, "the recipient list resolves to nobody");
        }
        Session session = Session.getInstance(properties());
        try (SMTPTransport transport = (SMTPTransport) session.getTransport(
                smtp.encryption() == MeshConfig.Smtp.Encryption.TLS ? "smtps" : "smtp")) {
            try {
                transport.connect(smtp.host().orElseThrow(), smtp.effectivePort(), null, null);
            } catch (MessagingException e) {
                return Outcome.retry(0, "cannot reach the mail server " + smtp.host().orElseThrow() + ": "
                        + e.getMessage());
            }
            try {
                Optional<String> problem = signIn(transport);
                if (problem.isPresent()) {
                    return Outcome.retry(0, problem.get());
                }
            } catch (MessagingException e) {
                return Outcome.retry(0, "the mail server refused the login: " + e.getMessage());
            }
            for (JsonNode event : EventObjects.JSON.readTree(delivery.events())) {
                MimeMessage message = message(session, event, recipients);
                transport.sendMessage(message, message.getAllRecipients());
            }
            return Outcome.delivered(SENT);
        } catch (SendFailedException e) {
            return Outcome.fail(0, "the mail server refused it: " + replies(e));
        } catch (MessagingException e) {
            return Outcome.fail(0, "the mail server refused the message: " + replies(e));
        }
    }

    /** What the server said: Jakarta Mail puts its replies ("550 ...") in the chain of nested exceptions. */
    private static String replies(MessagingException e) {
        Set<String> said = new LinkedHashSet<>();
        for (Exception next = e; next != null;
                next = next instanceof MessagingException m ? m.getNextException() : null) {
            if (next.getMessage() != null && !next.getMessage().isBlank()) {
                said.add(next.getMessage().strip());
            }
        }
        return said.isEmpty() ? e.getClass().getSimpleName() : String.join("; ", said);
    }

    private Properties properties() {
        Properties p = new Properties();
        boolean tls = smtp.encryption() == MeshConfig.Smtp.Encryption.TLS;
        String prefix = tls ? "mail.smtps." : "mail.smtp.";
        p.put(prefix + "auth", "false"); // signIn does it: Jakarta Mail has no CRAM-MD5
        if (smtp.encryption() == MeshConfig.Smtp.Encryption.STARTTLS) {
            p.put(prefix + "starttls.enable", "true");
            p.put(prefix + "starttls.required", "true");
        }
        if (smtp.encryption() != MeshConfig.Smtp.Encryption.NONE) {
            p.put(prefix + "ssl.checkserveridentity", "true");
        }
        String timeout = Long.toString(GuardedPost.TIMEOUT.toMillis());
        p.put(prefix + "connectiontimeout", timeout);
        p.put(prefix + "timeout", timeout);
        p.put(prefix + "writetimeout", timeout);
        p.putAll(extra);
        return p;
    }

    /**
     * Signs in with the mechanism the server offers: PLAIN when the connection is encrypted, else CRAM-MD5 (which
     * never sends the password). LOGIN is never used; a server that offers nothing else is a problem, said as such.
     */
    private Optional<String> signIn(SMTPTransport transport) throws MessagingException {
        if (smtp.username().isEmpty()) {
            return Optional.empty();
        }
        String user = smtp.username().get();
        String password = smtp.password().orElse("");
        String offered = transport.getExtensionParameter("AUTH");
        Set<String> mechanisms = offered == null ? Set.of()
                : Set.of(offered.toUpperCase(Locale.ROOT).trim().split("\\s+"));
        boolean encrypted = smtp.encryption() != MeshConfig.Smtp.Encryption.NONE;
        if (encrypted && mechanisms.contains("PLAIN")) {
            transport.issueCommand("AUTH PLAIN " + base64("\0" + user + "\0" + password), 235);
            return Optional.empty();
        }
        if (mechanisms.contains("CRAM-MD5")) {
            transport.issueCommand("AUTH CRAM-MD5", 334);
            String challenge = new String(Base64.getDecoder().decode(
                    transport.getLastServerResponse().substring(4).trim()), StandardCharsets.UTF_8);
            transport.issueCommand(base64(user + " " + hmacMd5(password, challenge)), 235);
            return Optional.empty();
        }
        return Optional.of("the mail server offers " + (mechanisms.isEmpty() ? "no authentication"
                : "only " + String.join(" ", new TreeSet<>(mechanisms))) + ", and this server signs in with "
                + (encrypted ? "PLAIN or CRAM-MD5" : "CRAM-MD5 (PLAIN only inside TLS)") + ", never LOGIN");
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String hmacMd5(String key, String challenge) {
        try {
            Mac mac = Mac.getInstance("HmacMD5");
            mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacMD5"));
            return HexFormat.of().formatHex(mac.doFinal(challenge.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacMD5 is part of every JDK", e);
        }
    }

    private MimeMessage message(Session session, JsonNode event, List<InternetAddress> to) throws MessagingException {
        MimeMessage message = new MimeMessage(session);
        message.setFrom(new InternetAddress(smtp.from()));
        message.setRecipients(Message.RecipientType.TO, to.toArray(InternetAddress[]::new));
        String text = event.path("message").asString("");
        message.setSubject(tailnet.name() + ": " + text, "UTF-8");
        message.setText(text + "\n\nType: " + event.path("type").asString("") + "\nTime: "
                + event.path("timestamp").asString("") + "\nData:\n"
                + EventObjects.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(event.path("data")) + "\n",
                "UTF-8");
        return message;
    }

    /** The addresses to mail, each once (case-insensitively), approvers resolved now, unusable ones skipped. */
    private List<InternetAddress> recipients(List<String> entries) {
        Set<String> seen = new LinkedHashSet<>();
        List<InternetAddress> addresses = new ArrayList<>();
        for (String entry : entries) {
            List<String> candidates = entry.equals(MailRecipients.APPROVERS) ? approvers() : List.of(entry);
            for (String candidate : candidates) {
                if (candidate == null || !MailRecipients.isAddress(candidate)
                        || !seen.add(candidate.toLowerCase(Locale.ROOT))) {
                    continue;
                }
                try {
                    addresses.add(new InternetAddress(candidate, true));
                } catch (AddressException e) {
                    seen.remove(candidate.toLowerCase(Locale.ROOT)); // skipped, like any unusable address
                }
            }
        }
        return addresses;
    }

    /** The e-mail of every user who may decide access requests ({@code AccessRequests.approvers}), read now. */
    private List<String> approvers() {
        return approvers.get().stream().map(User::email).toList();
    }
}
