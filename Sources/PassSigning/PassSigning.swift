// PassSigning
