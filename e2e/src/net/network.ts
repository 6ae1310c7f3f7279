// The test cluster's addresses, all on loopback (Linux routes the whole 127.0.0.0/8 to lo, so a
// process can bind any of them): one /16 per cluster, 127.N.0.0, split as a real cluster splits
// its node, pod and service networks. N is chosen per cluster so that clusters running at the
// same time on one machine (parallel test runs) never bind the same address and port.
import { randomInt } from 'node:crypto';

/** A range of addresses 127.N.a.b, numbered a * 256 + b, handed out in turn (not reused at once). */
export class AddressRange {
  private next: number;

  constructor(
    readonly subnet: number,
    readonly first: number,
    readonly last: number,
  ) {
    this.next = first;
  }

  address(index: number): string {
    return `127.${this.subnet}.${index >> 8}.${index & 255}`;
  }

  indexOf(ip: string): number | undefined {
    const m = /^127\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
    if (!m || Number(m[1]) !== this.subnet) return undefined;
    const index = Number(m[2]) * 256 + Number(m[3]);
    return index >= this.first && index <= this.last ? index : undefined;
  }

  contains(ip: string): boolean {
    return this.indexOf(ip) !== undefined;
  }

  /** The next address after the last one handed out that `inUse` does not claim (host parts 0 and 255 skipped). */
  allocate(inUse: (ip: string) => boolean): string | undefined {
    const size = this.last - this.first + 1;
    for (let tried = 0; tried < size; tried++) {
      const index = this.next;
      this.next = index >= this.last ? this.first : index + 1;
      const host = index & 255;
      if (host === 0 || host === 255) continue;
      const ip = this.address(index);
      if (!inUse(ip)) return ip;
    }
    return undefined;
  }

  /** The range in CIDR-like text for messages ("127.42.128.0/17"). */
  describe(): string {
    const bits = 32 - Math.log2(this.last - this.first + 1);
    return `${this.address(this.first)}/${Number.isInteger(bits) ? bits : '?'}`;
  }
}

export class ClusterNetwork {
  /** The node's own address (InternalIP, where NodePorts listen). */
  readonly nodeIp: string;
  /** Pod IPs: 127.N.0.2 - 127.N.127.254. */
  readonly pods: AddressRange;
  /** Service cluster IPs: 127.N.128.1 - 127.N.255.254. */
  readonly services: AddressRange;

  constructor(readonly subnet: number = randomSubnet()) {
    if (!Number.isInteger(subnet) || subnet < 1 || subnet > 254)
      throw new Error(`the cluster subnet must be 127.N with N in 1..254, got ${subnet}`);
    this.nodeIp = `127.${subnet}.0.1`;
    this.pods = new AddressRange(subnet, 2, 128 * 256 - 1);
    this.services = new AddressRange(subnet, 128 * 256, 256 * 256 - 1);
  }
}

/** 127.1 - 127.254, avoiding 127.0 (where 127.0.0.1 services of the machine live). */
export function randomSubnet(): number {
  return randomInt(1, 255);
}

/** NodePorts, as the real default --service-node-port-range. */
export const nodePortRange = { first: 30000, last: 32767 };
