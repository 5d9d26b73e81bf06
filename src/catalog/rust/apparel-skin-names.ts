/**
 * Rust clothing, armour and deployable skin names (Steam Community Market, app 252490),
 * hand-curated. Same line format as weapon-skin-names.ts. `RUST_OTHER_ITEMS` holds tradable
 * deployables that are items in their own right rather than skins (category `other`).
 */

export const RUST_APPAREL_SKINS = `
Hoodie: Black Hoodie; Blue Hoodie; Green Hoodie; Bloody Hoodie; Skeleton Hoodie; Whiteout Hoodie
Hoodie: Blackout Hoodie; Tempered Hoodie; No Mercy Hoodie; Phantom Hoodie; Rainbow Pony Hoodie
Hoodie: Black Gold Hoodie; Berserker Hoodie; Low Poly Hoodie; Copper Hoodie; Glister Hoodie
Hoodie: Dragon Rage Hoodie; Renegade Hoodie; Yeti Hoodie; Zombie Costume Hoodie
Hoodie: Knights Templar Hoodie; Forest Raiders Hoodie; Desert Raiders Hoodie
Hoodie: Shattered Mirror Hoodie; Corrupted Hoodie; Nitrogen Hoodie; Lovestruck Hoodie
Hoodie: Space Raider Hoodie; Winter Hoodie; Opulent Hoodie; Rusteratu Hoodie; Base Invaders Hoodie
Hoodie: Bombshell Hoodie; Bombing Hoodie; Poison Hoodie; Azul Hoodie; Kayak Hoodie; Dragon Hoodie
Hoodie: Bee Cosplay Hoodie; Hobo Hoodie; Uproar Hoodie; Conspiracy Nut Hoodie
Hoodie: Elite Forest Camo Hoodie; Snow Warrior Hoodie; Garage Master Hoodie; Cow Moo Flage Hoodie
Hoodie: Bio Integrity Hoodie; Caution Hoodie; Tactical Hoodie; Maniac Hoodie; Doodle Hoodie
Hoodie: Punkish Hoodie; Loot Leader Hoodie; Operator Hoodie; Playmaker Hoodie; Training Hoodie
Hoodie: Scudpunk Hoodie
Pants: Whiteout Pants; Blackout Pants; Tempered Pants; No Mercy Pants; Phantom Pants
Pants: Rainbow Pony Pants; Black Gold Pants; Berserker Pants; Low Poly Pants; Copper Pants
Pants: Renegade Pants; Dragon Rage Pants; Glister Pants; Yeti Pants; Zombie Costume Pants
Pants: Knights Templar Pants; Corrupted Pants; Shattered Mirror Pants; Desert Raiders Pants
Pants: Forest Raiders Pants; Space Raider Pants; Lovestruck Pants; Nitrogen Pants; Bombshell Pants
Pants: Bombing Pants; Winter Pants; Opulent Pants; Poison Pants; Azul Pants; Hobo Pants
Pants: Bee Cosplay Pants; Blue Jeans; Forest Camo Pants; Snow Camo Pants; Urban Camo Pants
Metal Facemask: Big Grin; Punishment Mask; Tempered Mask; Glowing Skull; Glory Mask
Metal Facemask: Rainbow Pony Mask; Poison Mask; Opulent Mask; Dread Mask; Tribe Warrior Mask
Metal Facemask: Northwind Mask; Troll Daddy Mask; War Machine Mask; Clan Leader Mask; Overlord Mask
Metal Facemask: Juggernaut Mask; Hunter Mask; Bronze War Mask; Mask of Sacrifice; Machina Mask
Metal Facemask: Whiteout Facemask; Blackout Facemask
Metal Chest Plate: Poison Armor Plate; Frostwulf Armor; Press Vest; Machina Plate
Metal Chest Plate: Samurai Kozane Do; Tribe Warrior Armor
Jacket: No Mercy Jacket; Blackout Jacket; Tempered Jacket; Bombing Jacket; Urban Camo Jacket
Jacket: Snowcamo Jacket; Red Jacket; Multicam Jacket; Hunting Jacket; Green Jacket; Desert Jacket
Jacket: Urban Ice Jacket; Provocateur Jacket; Blue Jacket
Boots: Tempered Boots; Blackout Boots; No Mercy Boots; Bombing Boots; Rainbow Pony Boots
Boots: Dragon Rage Boots; Lightweight Boots; Forest Raiders Boots; Desert Raiders Boots
Boots: Bombshell Boots; Corrupted Boots; Glory Boots; Punkish Boots; Training Boots; Doodle Boots
Boots: Loot Leader Boots; Army Black Boots
Coffee Can Helmet: Tempered Helmet; Blackout Helmet; No Mercy Helmet; Glister Helmet
Coffee Can Helmet: Dragon Rage Helmet; Lightweight Helmet; Bombing Helmet; Porcelain Helmet
Coffee Can Helmet: Opulent Helmet; Cardboard Helmet; Doodle Helmet; Training Helmet; Azul Helmet
Coffee Can Helmet: Phantom Helmet; Viking Helmet; Knights Templar Helmet; Rainbow Pony Helmet
Coffee Can Helmet: Military Helmet
Road Sign Jacket: Whiteout Vest; Blackout Vest; No Mercy Vest; Glister Vest; Dragon Rage Vest
Road Sign Jacket: Lightweight Vest; Corrupted Vest; Shattered Mirror Vest; Knights Templar Vest
Road Sign Jacket: Rainbow Pony Vest; Bombshell Vest; Doodle Vest; Phantom Vest; Training Vest
Road Sign Jacket: Copper Vest; Military Vest
Leather Gloves: Blackout Gloves; No Mercy Gloves; Glory Gloves; Bee Cosplay Gloves
Leather Gloves: Cow Moo Flage Gloves; Bio Integrity Gloves; Tactical Leather Gloves
Leather Gloves: Training Gloves; Playmaker Gloves; Loot Leader Gloves; Doodle Gloves
Leather Gloves: Punkish Gloves; Survivor Gloves; Firefighter Gloves; Lumberjack Gloves
Bandana Mask: Creepy Clown Bandana; Santa Bandana; Desert Camo Bandana; Checkered Bandana
Bandana Mask: Blue Bandana; Black Bandana; Green Bandana; Wizard Bandana; Rainbow Pony Bandana
Bandana Mask: Dragon Rage Bandana; Corrupted Bandana
Balaclava: Santa Balaclava; Valentine Balaclava; Knitted Balaclava; Nightmare Balaclava
Balaclava: Desert Camo Balaclava; Forest Camo Balaclava; Murica Balaclava; Red Check Balaclava
Baseball Cap: Red Cap; Grey Cap; Green Cap; Blue Cap; Forest Camo Cap
Beenie Hat: Black Beenie Hat; Blue Beenie Hat; Green Beenie Hat; Red Beenie Hat
`;

export const RUST_DEPLOYABLE_SKINS = `
Wooden Door: Friendly Wooden Door; Pixel Wooden Door; Cobalt Wooden Door; Pirate Wooden Door
Wooden Door: Ornate Wooden Door; Riveted Wooden Door; Viking Door; Alchemist Door; Archer Door
Wooden Door: Door to Heaven
Sheet Metal Door: Neon Cactus Metal Door; Molten Visage Metal Door; Glacial Visage Metal Door
Armored Door: Molten Visage Armored Door; Hellgate Armored Door; Cargo Heli Armored Door
Garage Door: Glacial Visage Garage Door; Molten Visage Garage Door; Tiger Garage Door
Garage Door: Christmas Tree Garage Door; Advent Calendar Garage Door; Corrupted Garage Door
Garage Door: Toxic Garage Door; Garage Door from Hell; Neon Pumpkin Garage Door
Wood Storage Box: Molten Visage Small Box; Glacial Visage Small Box; Small Tiger Box
Wood Storage Box: Army Supply Box; Desert Supply Box; Sea Supply Box; Cobalt Supply Box
Wood Storage Box: Toxic Hazard Box; High Voltage Box; Neon Hearts Box
Large Wood Box: Glacial Visage Large Box; Molten Visage Large Box; Spooky Large Box
`;

export const RUST_OTHER_ITEMS = `
Deployable: Cursed Cauldron; Skull Trophy; Sky Lantern; Snow Machine; Strobe Light; Fogger-3000
Deployable: New Year Gong; Skull Spikes; Giant Candy Decor; Large Candle Set
Instrument: Black Acoustic Guitar; Army Acoustic Guitar
`;
