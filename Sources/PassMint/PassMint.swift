// PassMint
