"""The networks the bench measures on, and how Chromium is made to have them.

Chromium's own network emulation (the DevTools protocol's `Network.emulateNetworkConditions`, sent
through a CDP session on the page) throttles every request the page makes, its Web Workers'
included: the engine's downloads are paced like the page's. Throughput is the same both ways, in
bytes per second (Mbit/s x 1e6 / 8); the latency is added to each request.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Network:
    name: str  # as `--networks` names it
    label: str  # as the table shows it
    mbit: float | None = None  # None: no emulation (loopback)
    latency_ms: float = 0.0

    @property
    def emulated(self) -> bool:
        return self.mbit is not None

    @property
    def bytes_per_second(self) -> float | None:
        return None if self.mbit is None else self.mbit * 1e6 / 8

    def conditions(self) -> dict[str, Any] | None:
        """The parameters of `Network.emulateNetworkConditions`, or None on loopback."""
        if self.bytes_per_second is None:
            return None
        return {
            "offline": False,
            "latency": self.latency_ms,
            "downloadThroughput": self.bytes_per_second,
            "uploadThroughput": self.bytes_per_second,
        }

    def least_seconds(self, size: int) -> float:
        """The least time `size` bytes take to arrive at this throughput (0 on loopback)."""
        return 0.0 if self.bytes_per_second is None else size / self.bytes_per_second


LOOPBACK = Network("loopback", "loopback (no emulation)")
NETWORKS = (
    LOOPBACK,
    Network("cable", "40 Mbit/s, 20 ms", 40, 20),
    Network("4g", "10 Mbit/s, 50 ms (4G)", 10, 50),
)


def chosen(names: str) -> tuple[Network, ...]:
    """The networks named in `names` (comma-separated, e.g. "loopback,4g"), in the bench's order."""
    wanted = [name.strip().lower() for name in names.split(",") if name.strip()]
    known = {network.name: network for network in NETWORKS}
    unknown = [name for name in wanted if name not in known]
    if unknown or not wanted:
        raise ValueError(f"networks must be among {', '.join(known)} (got {names!r})")
    return tuple(network for network in NETWORKS if network.name in wanted)


def emulate(context: Any, page: Any, network: Network, save_data: bool = False) -> Any:
    """Give `page` (and the workers it starts) `network`, and with `save_data` a connection that
    asks to save data (`navigator.connection.saveData`). Returns the CDP session (None when there
    is nothing to emulate), which the caller keeps as long as the page."""
    conditions = network.conditions()
    if conditions is None and not save_data:
        return None
    session = context.new_cdp_session(page)
    if conditions is not None:
        session.send("Network.emulateNetworkConditions", conditions)
    if save_data:
        session.send("Emulation.setDataSaverOverride", {"dataSaverEnabled": True})
    return session
