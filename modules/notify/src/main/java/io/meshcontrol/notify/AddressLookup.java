package io.meshcontrol.notify;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Name resolution for outgoing deliveries, replaceable so that tests never ask a real resolver. */
@FunctionalInterface
public interface AddressLookup {

    InetAddress[] resolve(String host) throws UnknownHostException;
}
