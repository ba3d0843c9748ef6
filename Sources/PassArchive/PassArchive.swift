// PassArchive
