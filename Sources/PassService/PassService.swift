// PassService
