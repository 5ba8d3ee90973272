package io.meshcontrol.server.nodecerts;

/**
 * A TXT record a node asked for: an ACME DNS-01 challenge answer.
 *
 * @param name the record's name, lowercase, without the trailing dot ({@code _acme-challenge.laptop.mesh.example})
 * @param value the text, 43 base64url characters for DNS-01
 */
public record TxtRecord(String name, String value) {
}
