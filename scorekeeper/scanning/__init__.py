"""One scan service for every read of a frame in play (scan, knock check, deck enrolling
and learning): `ScanService` picks the reader, reads, lays the cards out for the game and
keeps what a scan leaves. No HTTP here: the web routes parse requests and shape answers.

    service = ScanService(Vision(models), settings, camera, ScanImages(), ScanFrames())
    scan = service.scan(service.capture(), game, game_id, "Ann", "camera", deck)
"""

from scorekeeper.scanning.pictures import KEEP_SCANS, ScanImages
from scorekeeper.scanning.readers import ReaderUnavailable, Vision, reader_for
from scorekeeper.scanning.service import KnockRead, NoFrame, Scan, ScanService

__all__ = ["KEEP_SCANS", "KnockRead", "NoFrame", "ReaderUnavailable", "Scan", "ScanImages",
           "ScanService", "Vision", "reader_for"]
