import Foundation
@_exported import PassMintTestSupport
import Testing
