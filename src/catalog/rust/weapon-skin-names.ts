/**
 * Rust weapon skin names as traded on the Steam Community Market (app 252490), hand-curated.
 * One line per item type: `<item type>: <name>; <name>; …` (a type may span several lines).
 * Rust skins have no exterior, float, StatTrak™ or Souvenir.
 */

export const RUST_WEAPON_SKINS = `
Assault Rifle: Tempered AK47; Glory AK47; Alien Red; No Mercy AK47; Digital Camo AK47
Assault Rifle: Military Camo AK47; Panther AK47; Nightmare AK47; Azul AK47; Playmaker AK47
Assault Rifle: Huntsman AK47; Polymer AK47; Talon AK47; Claw AK47; Rustpunk AK47; Scrapper AK47
Assault Rifle: Chivalry AK47; Piranha AK47; Golden Drake AK47; Soul Taker AK47; Diesel AK47
Assault Rifle: Sandstorm AK47; Farseer AK47; Jaws AK47; Checkpoint AK47; Doombringer AK47
Assault Rifle: Rabble Rouser AK47; Cartagena AK47; Epidemic AK47; Aircraft Parts AK47
Assault Rifle: Retro Car Parts AK47; Caution AK47; Mystic AK47; Urban Ice AK47; Crypt of Death AK47
Assault Rifle: Rumble AK47; King of the Jungle AK47; Death in Spades AK47; Betty Lou AK47
Assault Rifle: Night Howler AK47; War Machine AK47; The Beast AK47; Scorpion AK47; Demonic AK47
Assault Rifle: Green Dragon AK47; Etherya AK47; Scarecrow AK47; Trophy Pirate AK47; T-Bone AK47
Assault Rifle: Gearlord AK47; Dynasty AK47; Royal AK47; Doodle AK47; Punkish AK47; Desert Hawk AK47
Assault Rifle: Battle Scarred AK47; Frost Wolf; Fate Destroyer; Dark Flames; Agony Yellow
Assault Rifle: Crimson King; Brass Lion; Santa Muerte; Glorious AK; Gold Rush AK; Phantom AK
Assault Rifle: Gingerbread AK; Troll Daddy AK; Sunken Treasure AK; Apocalyptic Knight AK; AK Royale
Assault Rifle: Hell's Dogs; Beast of Industry; The Reptile; Dead Pirate Rifle; Wasteland AR
Assault Rifle: Tiger AR; Neo Soul AR; Black Gold AR; Berserker AR; Zebra AR; Dragon Rage AR; Toy AR
Assault Rifle: Quarantine AR; Corrupted AR; Retrowave AR; Blackout AR; Cardboard AR
Assault Rifle: Rainbow Pony AR; Bombing AR; Toxic Wolf AR; Lost Soul AR; Safari AR; Porcelain AR
Assault Rifle: Shattered Mirror AR; Comics AR; Atomic AR
Bolt Action Rifle: No Mercy Bolt Rifle; Azul Bolt Rifle; Caution Bolt Rifle; Tundra Bolt Rifle
Bolt Action Rifle: Army Bolt Rifle; Ghost Bolt Rifle; Poseidon Bolt Rifle; Tempered BAR
Bolt Action Rifle: Blackout BAR; Cold Hunter BAR; Glory BAR; Polymer BAR; Survivor BAR; Sandwar BAR
Bolt Action Rifle: Smuggler's BAR; Deadly Rose BAR; Hunter's Bolt; Beauty Kills
Crossbow: Tempered Crossbow; Engraved Crossbow; Chrome Crossbow; Doomwing Crossbow; Tank Crossbow
Crossbow: Phoenix Crossbow; Primal Crossbow; Tribal Crossbow; Huntsman Crossbow; Caution Crossbow
Crossbow: Cold Hunter Crossbow; Vampire Crossbow; Rainbow Pony Crossbow; Jade Crossbow
Crossbow: Phantom Crossbow; Blackout Crossbow; No Mercy Crossbow; Toxic Wolf Crossbow
Crossbow: Military Crossbow; Pixel Crossbow
Hunting Bow: No Mercy Bow; Tempered Bow; Cold Hunter Bow; Blackout Bow; Retrowave Bow; Dragon Bow
Hunting Bow: Jade Bow; Vampire Bow; Phantom Bow; Obsidian Bow; Totem Bow; Venomous Bow
Hunting Bow: Pharaoh's Bow; Headhunter Bow; Native Hunting Bow
L96 Rifle: Blackout L96; No Mercy L96; Polar Bear L96; Ghost Flame L96; Training L96; Bombshell L96
L96 Rifle: Collector L96
LR-300 Assault Rifle: Azul LR300; No Mercy LR300; Black Gold LR; Blackout LR; Caution LR
LR-300 Assault Rifle: Obsidian LR; Dragon Rage LR; Zebra LR; Atomic LR; Talon LR; Doodle LR
LR-300 Assault Rifle: Polymer LR300; Holographic LR300; Dynasty LR300; Black Pearl LR300
LR-300 Assault Rifle: Poseidon LR300; Icarus LR300; Tempered Steel LR300; Deathcore LR300
LR-300 Assault Rifle: Bogeyman LR300; Warhead LR300; Winter Ops LR; Paintball LR; Phantom LR-300
LR-300 Assault Rifle: Badlands LR-300; Survivor LR-300; Wildfire LR-300
MP5A4: Tempered Mp5; Digital Camo MP5; Military Camo MP5; Urban Camo MP5; Black Gold MP5
MP5A4: Neo Soul MP5; Zebra MP5; Berserker MP5; Vortex MP5; Venomous MP5; Glister MP5
MP5A4: Quarantine MP5; Frosty MP5; Comics MP5; No Mercy MP5; Cold Hunter MP5; Arctic Wolf MP5
MP5A4: Wasp MP5; Icarus MP5; Valentine MP5; Phantom MP5; Tank MP5; Polymer MP5; Spitfire MP5
MP5A4: Dead Fish MP5; Nomad MP5; Solar MP5; Banger MP5
M249: Black Gold M249; Glister M249; Rainbow Pony M249; Playmaker M249; The Beast M249
M249: Bombshell M249; Guerilla M249; Poseidon LMG; No Mercy LMG; Toy Machine Gun
M39 Rifle: Bombshell M39; Tempered M39; Metalhead M39; Devourer M39; Ornate M39
Pump Shotgun: Toxic Wolf Pump Shotgun; Lightweight Pump Shotgun; Troll Daddy Pump Shotgun
Pump Shotgun: Spitfire Pump Shotgun; Metalhead Pump Shotgun; Royalty Pump Shotgun
Pump Shotgun: Polymer Pump Shotgun; Tank Pump Shotgun; Chieftain Pump Shotgun; Frostfire Shotgun
Pump Shotgun: Loot Leader Shotgun; Rebel Shotgun; Modern Knight Shotgun; Head Hunter Shotgun
Revolver: Tempered Revolver; Hot-tempered Revolver; Nuke Pistol; Party Pooper; Death Viper
Thompson: Tempered Thompson; Bombing Thompson; Blackout Thompson; Cold Hunter Thompson
Thompson: No Mercy Thompson; Weather Thompson; Azul Thompson; Desert Raiders Thompson
Thompson: Mysterious Cult Thompson; Chocolate Hunter Thompson
Custom SMG: Polymer SMG; Alien Relic SMG
Semi-Automatic Rifle: Glory SAR; Imp SAR; Retrowave SAR; Bamboo SAR; Submarine SAR; Pixel SAR
Semi-Automatic Rifle: Diesel SAR; SAR from Hell; OPS SAR
Double Barrel Shotgun: Santa's Blaster; Hippie Blaster; Raider's Shotgun; Santa's Boomstick
Double Barrel Shotgun: Military Boomstick; Heat Double Shotgun; Toy Blaster
Eoka Pistol: Pixel Eoka; Cucumber Eoka; Firecracker Eoka; Flare Eoka; Banana Eoka; Birch Eoka
Eoka Pistol: Gurkha Eoka
Waterpipe Shotgun: Tiger Pipe; Pirate Pipe; Junkyard Pipe; Twisted Pipe; Flaming Pipe
Waterpipe Shotgun: Blacksmith's Pipe; Garden Pipe Shotgun; Industrial Pipe Shotgun
Waterpipe Shotgun: Riveted Pipe Shotgun; Rustpunk Scattergun; The Peace Pipe
Combat Knife: Emerald Knife; Tea Ceremony Knife; Toothed Knife; Razor Knife; Glory Knife
Combat Knife: Emperor's Knife; Thug Knife; Combat Knife from Hell; Nuke Combat Knife
Combat Knife: Bronze Raven Knife; Phantom Knife; Carbon Elite
Bone Club: Maracas Bone Club; Broccoli Club; Ice Cream Club; Bone Scepter; Carved Club
Bone Club: Sacrificial Club
Bone Knife: Rebar Knife; Carrot Knife; Flesh Knife; Sacrificial Knife; Studded Bone Knife
Longsword: Aztec Macuahuitl; Kryss Longsword; Wakizashi; Xtreme Sword; Hot-tempered Longsword
F1 Grenade: Fire and Brimstone Grenade
`;
