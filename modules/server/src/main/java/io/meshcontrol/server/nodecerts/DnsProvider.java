package io.meshcontrol.server.nodecerts;

import java.io.IOException;

/**
 * Publishes and removes TXT records in the DNS zone of the nodes' names ({@code https_certificates.dns_provider}).
 * Each call returns once the change is made (or has failed), so a node that is told its record is published can
 * start its ACME challenge at once.
 */
public interface DnsProvider {

    /** Adds {@code record} beside any other TXT records of its name. */
    void publish(TxtRecord record) throws IOException, InterruptedException;

    /** Removes {@code record}, and only it; removing a record that is not there is no error. */
    void remove(TxtRecord record) throws IOException, InterruptedException;
}
