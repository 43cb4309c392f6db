#!/usr/bin/python3
"""trickle.py PORT [CONNS] [SECONDS] [SOURCES] [PROBE_PORT] - /healthz latency while CONNS
connections trickle their request heads (the request line, then one header
line every 5 s, which resets an idle timeout each time), spread over SOURCES
loopback addresses (127.0.0.2 ...); a connection the server closes is opened
again a second later, as an attacker would. /healthz is asked every 100 ms
from 127.0.0.1 with a 5 s timeout, by a separate process so the trickle's
event loop does not delay the probe; on PROBE_PORT (the --probe-port
listener) when given, else on PORT itself. A benchmark: prints figures, asserts
nothing. Bounded: SECONDS (default 30)."""
import asyncio
import multiprocessing
import resource
import socket
import sys
import time

port = int(sys.argv[1])
conns = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 30.0
sources = int(sys.argv[4]) if len(sys.argv) > 4 else 1
probe_port = int(sys.argv[5]) if len(sys.argv) > 5 else port
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
stats = {"opened": 0, "refused": 0, "closed_by_server": 0, "max_open": 0, "open": 0}


async def trickler(i, end):
    src = "127.0.0.%d" % (2 + i % sources)
    while time.monotonic() < end:
        try:
            r, w = await asyncio.open_connection("127.0.0.1", port, local_addr=(src, 0))
        except OSError:
            stats["refused"] += 1
            await asyncio.sleep(1)
            continue
        stats["opened"] += 1
        stats["open"] += 1
        stats["max_open"] = max(stats["max_open"], stats["open"])
        try:
            w.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            while time.monotonic() < end:
                try:
                    d = await asyncio.wait_for(r.read(1), 5)
                    if d == b"":
                        stats["closed_by_server"] += 1
                        break
                except asyncio.TimeoutError:
                    pass
                w.write(b"X-Trickle: 1\r\n")
                await w.drain()
        except OSError:
            stats["closed_by_server"] += 1
        finally:
            stats["open"] -= 1
            w.close()
        await asyncio.sleep(1)


def prober(end, out):
    lat, fails = [], []
    while time.monotonic() < end:
        t = time.monotonic()
        try:
            c = socket.create_connection(("127.0.0.1", probe_port), timeout=5)
            c.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            head = b""
            while True:
                d = c.recv(4096)
                if not d:
                    break
                head += d
            c.close()
            if head.startswith(b"HTTP/1.1 200"):
                lat.append(time.monotonic() - t)
            else:
                fails.append(head[:30])
        except OSError as e:
            fails.append(type(e).__name__)
        time.sleep(max(0, 0.1 - (time.monotonic() - t)))
    out.put((lat, fails))


async def main(end):
    tasks = [asyncio.create_task(trickler(i, end)) for i in range(conns)]
    await asyncio.gather(*tasks, return_exceptions=True)


end = time.monotonic() + seconds
results = multiprocessing.Queue()
probe = multiprocessing.Process(target=lambda: (time.sleep(2), prober(end, results)))  # after the trickle took hold
probe.start()
asyncio.run(main(end))
lat, fails = results.get()
probe.join()
lat.sort()
pct = lambda p: "%.1f ms" % (lat[min(len(lat) - 1, int(p * len(lat)))] * 1e3) if lat else "-"
print("trickle: %d connections from %d address(es), %.0f s: opened %d, closed by the server %d, "
      "refused %d, most open at once %d" % (conns, sources, seconds, stats["opened"], stats["closed_by_server"],
                                             stats["refused"], stats["max_open"]))
print("healthz (%s port %d): %d answered 200, %d failed; p50 %s, p99 %s, max %s" % ("probe" if probe_port != port else "main", probe_port, len(lat), len(fails), pct(0.5), pct(0.99),
                                                                       pct(1.0)))
