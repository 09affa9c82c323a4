// The built-in attribute rows: Core Spotlight's vocabulary for what a file can carry. Each row is
// data (name, Apple name, type, multiplicity, searchable-by-default); nothing else in Lumen keeps
// its own list. Adding a row here is all a new attribute needs, plus a store migration that
// gives it a column when it is single-valued (see LumenStore's schema).

private func row(
  _ name: String, _ mdItem: String?, _ type: AttributeValueType, multi: Bool = false,
  text: Bool = false, aliases: [String] = []
) -> AttributeKey {
  AttributeKey(
    name: name, mdItemName: mdItem, aliases: aliases, valueType: type, isMultiValued: multi,
    isSearchableByDefault: text)
}

extension AttributeKey {
  // Names and identity
  public static let title = row("title", "kMDItemTitle", .text, text: true)
  public static let displayName = row("displayName", "kMDItemDisplayName", .text, text: true)
  public static let contentDescription = row(
    "contentDescription", "kMDItemDescription", .text, text: true)
  public static let keywords = row("keywords", "kMDItemKeywords", .text, multi: true, text: true)
  public static let authors = row(
    "authors", "kMDItemAuthors", .text, multi: true, text: true, aliases: ["authorNames"])
  public static let subject = row("subject", "kMDItemSubject", .text, text: true)
  public static let comment = row("comment", "kMDItemComment", .text, text: true)
  public static let textContent = row("textContent", "kMDItemTextContent", .text, text: true)
  public static let identifier = row("identifier", "kMDItemIdentifier", .text)
  public static let creator = row("creator", "kMDItemCreator", .text, text: true)
  public static let publishers = row(
    "publishers", "kMDItemPublishers", .text, multi: true, text: true)
  public static let contributors = row(
    "contributors", "kMDItemContributors", .text, multi: true, text: true)
  public static let encodingApplications = row(
    "encodingApplications", "kMDItemEncodingApplications", .text, multi: true)
  public static let languages = row("languages", "kMDItemLanguages", .text, multi: true)
  public static let copyright = row("copyright", "kMDItemCopyright", .text)
  public static let headline = row("headline", "kMDItemHeadline", .text, text: true)
  public static let version = row("version", "kMDItemVersion", .text)
  public static let rating = row("rating", "kMDItemStarRating", .number)
  public static let information = row("information", "kMDItemInformation", .text, text: true)
  public static let organizations = row(
    "organizations", "kMDItemOrganizations", .text, multi: true, text: true)

  // Documents
  public static let pageCount = row("pageCount", "kMDItemNumberOfPages", .number)
  public static let pageWidth = row("pageWidth", "kMDItemPageWidth", .number)
  public static let pageHeight = row("pageHeight", "kMDItemPageHeight", .number)
  public static let securityMethod = row("securityMethod", "kMDItemSecurityMethod", .text)

  // Photos
  public static let pixelWidth = row("pixelWidth", "kMDItemPixelWidth", .number)
  public static let pixelHeight = row("pixelHeight", "kMDItemPixelHeight", .number)
  public static let fNumber = row("fNumber", "kMDItemFNumber", .number)
  public static let aperture = row("aperture", "kMDItemAperture", .number)
  public static let focalLength = row("focalLength", "kMDItemFocalLength", .number)
  public static let focalLength35mm = row("focalLength35mm", "kMDItemFocalLength35mm", .number)
  public static let exposureTime = row("exposureTime", "kMDItemExposureTimeSeconds", .number)
  public static let isoSpeed = row("isoSpeed", "kMDItemISOSpeed", .number)
  public static let flashOn = row("flashOn", "kMDItemFlashOnOff", .bool)
  public static let acquisitionMake = row("acquisitionMake", "kMDItemAcquisitionMake", .text)
  public static let acquisitionModel = row("acquisitionModel", "kMDItemAcquisitionModel", .text)
  public static let lensModel = row("lensModel", "kMDItemLensModel", .text)
  public static let orientation = row("orientation", "kMDItemOrientation", .number)
  public static let colorSpace = row("colorSpace", "kMDItemColorSpace", .text)
  public static let bitsPerSample = row("bitsPerSample", "kMDItemBitsPerSample", .number)
  public static let whiteBalance = row("whiteBalance", "kMDItemWhiteBalance", .number)
  public static let meteringMode = row("meteringMode", "kMDItemMeteringMode", .text)
  public static let exposureProgram = row("exposureProgram", "kMDItemExposureProgram", .text)
  public static let exifVersion = row("exifVersion", "kMDItemEXIFVersion", .text)

  // Places
  public static let latitude = row("latitude", "kMDItemLatitude", .number)
  public static let longitude = row("longitude", "kMDItemLongitude", .number)
  public static let altitude = row("altitude", "kMDItemAltitude", .number)
  public static let city = row("city", "kMDItemCity", .text, text: true)
  public static let country = row("country", "kMDItemCountry", .text, text: true)
  public static let stateOrProvince = row(
    "stateOrProvince", "kMDItemStateOrProvince", .text, text: true)
  public static let postalCode = row("postalCode", nil, .text)
  public static let thoroughfare = row("thoroughfare", nil, .text, text: true)
  public static let namedLocation = row("namedLocation", "kMDItemNamedLocation", .text, text: true)
  public static let fullyFormattedAddress = row("fullyFormattedAddress", nil, .text, text: true)

  // Audio and video
  public static let duration = row("duration", "kMDItemDurationSeconds", .number)
  public static let audioSampleRate = row("audioSampleRate", "kMDItemAudioSampleRate", .number)
  public static let audioChannelCount = row(
    "audioChannelCount", "kMDItemAudioChannelCount", .number)
  public static let audioBitRate = row("audioBitRate", "kMDItemAudioBitRate", .number)
  public static let videoBitRate = row("videoBitRate", "kMDItemVideoBitRate", .number)
  public static let album = row("album", "kMDItemAlbum", .text, text: true)
  public static let artist = row("artist", nil, .text, text: true)
  public static let composer = row("composer", "kMDItemComposer", .text, text: true)
  public static let musicalGenre = row("musicalGenre", "kMDItemMusicalGenre", .text, text: true)
  public static let audioTrackNumber = row(
    "audioTrackNumber", "kMDItemAudioTrackNumber", .number)
  public static let recordingDate = row("recordingDate", "kMDItemRecordingDate", .date)
  public static let codecs = row("codecs", "kMDItemCodecs", .text, multi: true)

  // Events and tasks
  public static let startDate = row("startDate", nil, .date)
  public static let endDate = row("endDate", nil, .date)
  public static let dueDate = row("dueDate", "kMDItemDueDate", .date)
  public static let completionDate = row("completionDate", nil, .date)

  // Types and dates
  public static let contentType = row("contentType", "kMDItemContentType", .text)
  public static let contentTypeTree = row(
    "contentTypeTree", "kMDItemContentTypeTree", .text, multi: true)
  public static let kind = row("kind", "kMDItemKind", .text)
  public static let contentCreationDate = row(
    "contentCreationDate", "kMDItemContentCreationDate", .date)
  public static let contentModificationDate = row(
    "contentModificationDate", "kMDItemContentModificationDate", .date)
  public static let lastUsedDate = row("lastUsedDate", "kMDItemLastUsedDate", .date)
  public static let addedDate = row("addedDate", "kMDItemDateAdded", .date)
  public static let downloadedDate = row("downloadedDate", "kMDItemDownloadedDate", .date)
  public static let metadataModificationDate = row(
    "metadataModificationDate", "kMDItemAttributeChangeDate", .date)

  // Files
  public static let path = row("path", "kMDItemPath", .text)
  public static let fileName = row("fileName", "kMDItemFSName", .text, text: true)
  public static let fileSize = row("fileSize", "kMDItemFSSize", .number)
  public static let ownerUserID = row("ownerUserID", "kMDItemFSOwnerUserID", .number)
  public static let ownerGroupID = row("ownerGroupID", "kMDItemFSOwnerGroupID", .number)
  public static let ownerName = row("ownerName", nil, .text)
  public static let fileMode = row("fileMode", nil, .number)
  public static let linkTarget = row("linkTarget", nil, .text)
  public static let whereFroms = row("whereFroms", "kMDItemWhereFroms", .text, multi: true)

  // Structured data found inside a file (schema.org types of HTML microdata and JSON-LD).
  public static let schemaTypes = row("schemaTypes", nil, .text, multi: true)

  /// Every built-in row, in the order `lumen show` prints them.
  public static let builtIns: [AttributeKey] = [
    title, displayName, contentDescription, keywords, authors, subject, comment, creator,
    publishers, contributors, encodingApplications, languages, copyright, headline, version,
    rating, information, organizations, identifier,
    pageCount, pageWidth, pageHeight, securityMethod,
    pixelWidth, pixelHeight, fNumber, aperture, focalLength, focalLength35mm, exposureTime,
    isoSpeed, flashOn, acquisitionMake, acquisitionModel, lensModel, orientation, colorSpace,
    bitsPerSample, whiteBalance, meteringMode, exposureProgram, exifVersion,
    latitude, longitude, altitude, city, country, stateOrProvince, postalCode, thoroughfare,
    namedLocation, fullyFormattedAddress,
    duration, audioSampleRate, audioChannelCount, audioBitRate, videoBitRate, album, artist,
    composer, musicalGenre, audioTrackNumber, recordingDate, codecs,
    startDate, endDate, dueDate, completionDate,
    contentType, contentTypeTree, kind, contentCreationDate, contentModificationDate,
    lastUsedDate, addedDate, downloadedDate, metadataModificationDate,
    path, fileName, fileSize, ownerUserID, ownerGroupID, ownerName, fileMode, linkTarget,
    whereFroms, schemaTypes, textContent,
  ]
}
