// FuzzerEntry has no API for Swift: it only provides the executables' entry points.
