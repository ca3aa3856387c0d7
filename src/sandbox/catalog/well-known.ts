// Well-known assets and where they are deployed. One row per asset:
//   symbol | name | USD price | networks | options
// Options: `stable`, `major` (deep books, high limits), `book=X` (priced and routed as X, for
// wrapped or staked forms), `dec=N` (decimals everywhere), `off=NET,NET` (inactive there), `off`
// (inactive everywhere). Prices are fixed so that quotes are reproducible.

const EVM = 'ETH BSC POLYGON ARBITRUM OPTIMISM BASE AVAX LINEA ZKSYNC'
const L2 = 'ARBITRUM OPTIMISM BASE LINEA ZKSYNC'

const TABLE = `
USDT|Tether USD|1|${EVM} FTM SOL TRX TON SUI|stable
USDC|USD Coin|1|${EVM} FTM SOL TRX SUI|stable
DAI|Dai Stablecoin|1|${EVM} FTM|stable
FDUSD|First Digital USD|1|ETH BSC SUI|stable
PYUSD|PayPal USD|1|ETH SOL ARBITRUM|stable
TUSD|TrueUSD|1|ETH BSC TRX AVAX|stable off=TRX
USDP|Pax Dollar|1|ETH BSC|stable
USDD|Decentralized USD|1|TRX ETH BSC|stable off=ETH
USDe|Ethena USDe|1|ETH ARBITRUM BASE BSC|stable
FRAX|Frax|1|ETH ARBITRUM OPTIMISM POLYGON AVAX BSC FTM|stable
LUSD|Liquity USD|1|ETH OPTIMISM ARBITRUM|stable
GHO|GHO|1|ETH ARBITRUM BASE|stable
crvUSD|Curve.Fi USD Stablecoin|1|ETH ARBITRUM OPTIMISM|stable
sUSD|Synth sUSD|1|ETH OPTIMISM|stable
BUSD|Binance USD|1|ETH BSC|stable off
RLUSD|Ripple USD|1|XRP ETH|stable dec=15
USDS|Sky Dollar|1|ETH BASE|stable
EURC|Euro Coin|1.08|ETH SOL BASE AVAX|stable book=EURC
XAUT|Tether Gold|2390|ETH TON|dec=6
PAXG|Paxos Gold|2385|ETH|
WBTC|Wrapped BTC|64250|ETH POLYGON ARBITRUM OPTIMISM BASE AVAX LINEA ZKSYNC FTM TRX|major book=BTC dec=8
cbBTC|Coinbase Wrapped BTC|64250|ETH BASE ARBITRUM SOL|major book=BTC dec=8
tBTC|tBTC v2|64100|ETH ARBITRUM OPTIMISM BASE POLYGON SOL|book=BTC
BTCB|Bitcoin BEP2|64250|BSC|major book=BTC
WETH|Wrapped Ether|3180|${EVM} FTM SOL SUI|major book=ETH
stETH|Lido Staked ETH|3176|ETH|book=ETH
wstETH|Wrapped liquid staked Ether 2.0|3740|ETH ${L2} POLYGON BSC|
rETH|Rocket Pool ETH|3550|ETH ARBITRUM OPTIMISM BASE POLYGON|
cbETH|Coinbase Wrapped Staked ETH|3420|ETH BASE ARBITRUM OPTIMISM|
weETH|Wrapped eETH|3330|ETH ARBITRUM BASE LINEA BSC|
WBNB|Wrapped BNB|585|BSC|major book=BNB
BNB|BNB|585|ETH OPTIMISM|book=BNB
WPOL|Wrapped POL|0.52|POLYGON|book=POL
POL|Polygon Ecosystem Token|0.52|ETH|book=POL
WAVAX|Wrapped AVAX|27.4|AVAX|major book=AVAX
sAVAX|Staked AVAX|31.2|AVAX|
WFTM|Wrapped Fantom|0.71|FTM|book=FTM
WSOL|Wrapped SOL|148.6|SOL|major book=SOL dec=9
mSOL|Marinade staked SOL|182.3|SOL|dec=9
JitoSOL|Jito Staked SOL|171.9|SOL|dec=9
bSOL|BlazeStake Staked SOL|169.4|SOL|dec=9
TRX|TRON|0.124|BSC ETH|book=TRX dec=6
WTRX|Wrapped TRX|0.124|TRX|book=TRX dec=6
TON|Toncoin|6.85|ETH BSC|book=TON dec=9
DOGE|Dogecoin|0.124|BSC|book=DOGE dec=8
XRP|XRP Token|0.52|BSC|book=XRP
LTC|Litecoin Token|71.3|BSC|book=LTC
LINK|ChainLink Token|14.1|${EVM} FTM SOL|major
UNI|Uniswap|7.9|ETH BSC POLYGON ARBITRUM OPTIMISM BASE AVAX|
AAVE|Aave Token|92.5|ETH POLYGON ARBITRUM OPTIMISM AVAX BSC BASE FTM|
MKR|Maker|2350|ETH POLYGON ARBITRUM|
SKY|SKY Governance Token|0.06|ETH|
SHIB|SHIBA INU|0.0000175|ETH BSC|
PEPE|Pepe|0.0000089|ETH ARBITRUM BSC|
FLOKI|FLOKI|0.00016|ETH BSC|dec=9
ARB|Arbitrum|0.81|ETH ARBITRUM|
OP|Optimism|1.72|OPTIMISM|
ZK|ZKsync|0.15|ZKSYNC|
LDO|Lido DAO Token|1.85|ETH ARBITRUM OPTIMISM POLYGON|
CRV|Curve DAO Token|0.34|ETH ARBITRUM OPTIMISM POLYGON FTM BASE|
COMP|Compound|52.4|ETH BASE|
SNX|Synthetix Network Token|2.12|ETH OPTIMISM BASE|
SUSHI|SushiToken|0.79|ETH BSC POLYGON ARBITRUM FTM AVAX|
1INCH|1INCH Token|0.39|ETH BSC|
GRT|Graph Token|0.19|ETH ARBITRUM|
APE|ApeCoin|0.83|ETH|
SAND|SAND|0.33|ETH POLYGON|
MANA|Decentraland MANA|0.34|ETH POLYGON|
AXS|Axie Infinity Shard|5.6|ETH BSC|
ENS|Ethereum Name Service|21.3|ETH|
BAT|Basic Attention Token|0.19|ETH BSC|
ZRX|0x Protocol Token|0.36|ETH POLYGON|
YFI|yearn.finance|5840|ETH BSC|
BAL|Balancer|2.31|ETH POLYGON ARBITRUM|
RPL|Rocket Pool Protocol|10.4|ETH ARBITRUM|
FXS|Frax Share|2.1|ETH ARBITRUM|
CVX|Convex Token|2.2|ETH|
GNO|Gnosis Token|205|ETH|
LRC|LoopringCoin V2|0.17|ETH|
CHZ|chiliZ|0.078|ETH BSC|
IMX|Immutable X|1.41|ETH|
BLUR|Blur|0.21|ETH|
WLD|Worldcoin|2.05|ETH OPTIMISM|
ONDO|Ondo Finance|1.02|ETH BASE|
ETHFI|ether.fi governance token|1.66|ETH ARBITRUM|
EIGEN|Eigen|3.1|ETH|
PENDLE|Pendle|4.3|ETH ARBITRUM BSC OPTIMISM|
ENA|Ethena|0.36|ETH|
FET|Fetch.ai|1.21|ETH BSC|
RNDR|Render Token|6.95|ETH SOL POLYGON|
INJ|Injective Token|21.7|ETH|
AMP|Amp|0.0061|ETH|
OCEAN|Ocean Token|0.53|ETH POLYGON BSC|
ANKR|Ankr Network|0.027|ETH BSC|
STORJ|StorjToken|0.37|ETH|dec=8
SKL|SKALE|0.035|ETH|
MASK|Mask Network|2.49|ETH BSC POLYGON|
DYDX|dYdX|1.32|ETH|
KNC|Kyber Network Crystal v2|0.51|ETH POLYGON ARBITRUM AVAX BSC OPTIMISM|
BNT|Bancor Network Token|0.61|ETH|
UMA|UMA Voting Token v1|2.34|ETH|
API3|API3|1.58|ETH|
BAND|BandToken|1.12|ETH|
AUDIO|Audius|0.17|ETH|
RLC|iExec RLC|1.71|ETH|dec=9
CELR|CelerToken|0.012|ETH BSC|
HOT|HoloToken|0.0019|ETH|
LPT|Livepeer Token|12.6|ETH ARBITRUM|
SSV|SSV Token|24.1|ETH|
GMX|GMX|27.5|ARBITRUM AVAX|
MAGIC|MAGIC|0.39|ARBITRUM|
RDNT|Radiant|0.078|ARBITRUM BSC|
VELO|Velodrome|0.06|OPTIMISM|
AERO|Aerodrome|0.81|BASE|
WELL|WELL|0.041|BASE|
DEGEN|Degen|0.0071|BASE|
BRETT|Brett|0.093|BASE|
TOSHI|Toshi|0.00023|BASE|
JOE|JoeToken|0.38|AVAX ARBITRUM BSC|
QI|BENQI|0.011|AVAX|
CAKE|PancakeSwap Token|1.91|BSC ETH ARBITRUM ZKSYNC BASE|
XVS|Venus|7.8|BSC|
TWT|Trust Wallet|0.97|BSC|
BAKE|BakeryToken|0.21|BSC|
ALPACA|AlpacaToken|0.08|BSC|off
QUICK|QuickSwap|0.045|POLYGON|
GHST|Aavegotchi GHST Token|0.98|POLYGON BASE|
BOO|SpookyToken|0.62|FTM|
BEETS|BeethovenxToken|0.04|FTM|
SPIRIT|SpiritSwap Token|0.003|FTM|off
BONK|Bonk|0.000021|SOL|dec=5
WIF|dogwifhat|2.08|SOL|dec=6
JUP|Jupiter|0.94|SOL|dec=6
RAY|Raydium|1.76|SOL|dec=6
ORCA|Orca|1.92|SOL|dec=6
PYTH|Pyth Network|0.34|SOL|dec=6
JTO|JITO|2.63|SOL|dec=9
W|Wormhole Token|0.26|SOL ETH|dec=6
HNT|Helium Network Token|4.77|SOL|dec=8
TNSR|Tensor|0.52|SOL|dec=9
POPCAT|Popcat|0.61|SOL|dec=9
MEW|cat in a dogs world|0.0052|SOL|dec=5
BOME|BOOK OF MEME|0.0089|SOL|dec=6
SUN|SUN|0.021|TRX|dec=18
JST|JUST|0.031|TRX|dec=18
BTT|BitTorrent|0.0000012|TRX ETH BSC|dec=18
WIN|WINkLink|0.000098|TRX|dec=6
NFT|APENFT|0.00000046|TRX|dec=6
STON|STON|3.1|TON|dec=9
NOT|Notcoin|0.0071|TON|dec=9
DOGS|Dogs|0.00058|TON|dec=9
HMSTR|Hamster Kombat|0.0031|TON|dec=9
CATI|Catizen|0.41|TON|dec=9
jUSDT|Bridged Tether USD|1|TON|stable dec=6 book=USDT
CETUS|Cetus Token|0.11|SUI|dec=9
DEEP|DeepBook Token|0.05|SUI|dec=6
NAVX|NAVX Token|0.08|SUI|dec=9
SCA|Scallop|0.29|SUI|dec=9
SOLO|Sologenic|0.11|XRP|dec=15
CORE|Coreum|0.09|XRP|dec=15
CSC|CasinoCoin|0.00012|XRP|dec=15
`

export interface WellKnownAsset {
  symbol: string
  name: string
  usd: number
  networks: string[]
  stable: boolean
  major: boolean
  book: string
  decimals?: number
  inactiveOn: Set<string> | 'all'
}

function parseRow(row: string): WellKnownAsset {
  const [symbol = '', name = '', usd = '', networks = '', options = ''] = row.split('|')
  const flags = options.split(' ').filter(Boolean)
  const option = (key: string) => flags.find((f) => f.startsWith(`${key}=`))?.slice(key.length + 1)
  const decimals = option('dec')
  const off = option('off')
  return {
    symbol,
    name,
    usd: Number(usd),
    networks: networks.split(' ').filter(Boolean),
    stable: flags.includes('stable'),
    major: flags.includes('major'),
    book: option('book') ?? symbol.toUpperCase(),
    ...(decimals === undefined ? {} : { decimals: Number(decimals) }),
    inactiveOn: flags.includes('off') ? 'all' : new Set(off?.split(',') ?? []),
  }
}

export const WELL_KNOWN_ASSETS: readonly WellKnownAsset[] = TABLE.trim().split('\n').map(parseRow)
