"""A packet shaper on a TUN device, for `npm run bench -- networks` (bench/netns.ts sets it up).

Run inside the bench's own network namespace: tc on `lo` redirects every IPv4 packet to or from a
phone address (127.<10 + profile>.x.y) to this TUN device; each packet read here is dropped
(the profile's loss, or the phone's signal is cut off) or written back into the device after its
one-way delay +- jitter, where the kernel receives it as if it came over the air. TCP sees real
loss and resends by itself. Packets of one phone and direction keep their order (a FIFO link).

    python3 tun-shaper.py DEVICE PROFILES_JSON [SEED]

PROFILES_JSON: [{"oneWayMs": 60, "jitterMs": 20, "loss": 0.005}, ...], index = profile.
stdin, one command a line: `cut ADDRESS MS` (drop everything of that phone for MS ms),
`trace ADDRESS` (log that phone's packets on stderr), `stats` (prints `stats PASSED DROPPED`).
Prints `ready` once the device exists, and the stats again on stdin's end, then exits. Python 3 standard library only (Linux).
"""

import fcntl
import heapq
import json
import os
import random
import select
import socket
import struct
import sys
import time

TUNSETIFF = 0x400454CA
IFF_TUN = 0x0001
IFF_NO_PI = 0x1000
PHONE_FIRST_OCTETS = 127
PROFILE_BASE = 10


def open_tun(name):
    fd = os.open('/dev/net/tun', os.O_RDWR | os.O_NONBLOCK)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack('16sH', name.encode(), IFF_TUN | IFF_NO_PI))
    return fd


def phone_of(packet):
    """(phone address, profile index, toward the phone) of an IPv4 packet, or None."""
    if len(packet) < 20 or packet[0] >> 4 != 4:
        return None
    for offset, toward in ((12, False), (16, True)):
        a, b = packet[offset], packet[offset + 1]
        if a == PHONE_FIRST_OCTETS and b >= PROFILE_BASE:
            return packet[offset:offset + 4], b - PROFILE_BASE, toward
    return None


def describe(packet):
    header = (packet[0] & 0x0F) * 4
    flags = packet[header + 13] if len(packet) > header + 13 else 0
    names = ''.join(n for bit, n in ((2, 'S'), (16, '.'), (1, 'F'), (4, 'R'), (8, 'P')) if flags & bit)
    ports = struct.unpack('!HH', packet[header:header + 4]) if len(packet) >= header + 4 else (0, 0)
    seq = struct.unpack('!I', packet[header + 4:header + 8])[0] if len(packet) >= header + 8 else 0
    return f'{socket.inet_ntoa(packet[12:16])}:{ports[0]}>{socket.inet_ntoa(packet[16:20])}:{ports[1]} {names} seq {seq} len {len(packet)}'


def main():
    device, profiles = sys.argv[1], json.loads(sys.argv[2])
    rng = random.Random(int(sys.argv[3])) if len(sys.argv) > 3 else random.Random()
    fd = open_tun(device)
    print('ready', flush=True)
    queue = []  # (due, seq, packet)
    last_due = {}  # (phone, toward) -> due of its last packet: no overtaking
    cut_until = {}  # phone -> monotonic end of its signal loss
    traced = set()
    seq = sent = dropped = 0
    stdin = sys.stdin.buffer
    commands = b''
    while True:
        now = time.monotonic()
        while queue and queue[0][0] <= now:
            _, _, packet = heapq.heappop(queue)
            try:
                os.write(fd, packet)
                sent += 1
            except OSError:
                dropped += 1
        timeout = max(0.0, queue[0][0] - now) if queue else None
        readable, _, _ = select.select([fd, stdin], [], [], timeout)
        if stdin in readable:
            chunk = os.read(stdin.fileno(), 65536)
            if not chunk:
                break
            commands += chunk
            while b'\n' in commands:
                line, commands = commands.split(b'\n', 1)
                words = line.decode().split()
                if len(words) == 3 and words[0] == 'cut':
                    cut_until[socket.inet_aton(words[1])] = time.monotonic() + int(words[2]) / 1000
                elif words == ['stats']:
                    print(f'stats {sent} {dropped}', flush=True)
                elif len(words) == 2 and words[0] == 'trace':
                    traced.add(socket.inet_aton(words[1]))
        if fd not in readable:
            continue
        while True:
            try:
                packet = os.read(fd, 65536)
            except BlockingIOError:
                break
            now = time.monotonic()
            found = phone_of(packet)
            if found is None:
                dropped += 1  # not a phone's: nothing else is routed here
                continue
            phone, index, toward = found
            profile = profiles[index]
            lost = now < cut_until.get(phone, 0) or rng.random() < profile['loss']
            if phone in traced:
                print(f'{time.time() * 1000:.0f} {"drop" if lost else "pass"} {describe(packet)}', file=sys.stderr, flush=True)
            if lost:
                dropped += 1
                continue
            delay = max(0.0, profile['oneWayMs'] + rng.uniform(-1, 1) * profile['jitterMs']) / 1000
            due = max(now + delay, last_due.get((phone, toward), 0))
            last_due[(phone, toward)] = due
            seq += 1
            heapq.heappush(queue, (due, seq, packet))
    print(f'stats {sent} {dropped}', flush=True)


if __name__ == '__main__':
    main()
