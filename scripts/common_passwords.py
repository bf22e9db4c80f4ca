"""Write ``src/flametable/web/data/common-passwords.txt``: the most common passwords of 8 characters or more, the
list the server refuses new passwords from (``flametable.web.accounts.check_password``; shorter ones are refused by
their length already). Nothing is downloaded: the words below are the top entries of the well-known public lists
(the passwords most seen in breaches, as SplashData's, NordPass's and the NCSC's yearly top lists and the RockYou
leak rank them), in English and Spanish, and the patterns people make of them (a word with a year or a count, a
keyboard walk, a repeated digit), lower-cased (the check compares casefolded).

    python scripts/common_passwords.py          # writes the file; --check: exit 1 if it differs
"""

from __future__ import annotations

import sys
from itertools import product
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src" / "flametable" / "web" / "data" / "common-passwords.txt"
MIN = 8

# Passwords ranked among the most used in the public lists, as they are typed.
LISTED = """
password password1 password12 password123 password1234 passw0rd p@ssw0rd p@ssword pa$$word pa55word passwort
12345678 123456789 1234567890 12345678910 0123456789 987654321 9876543210 87654321 11111111 111111111 1111111111
00000000 000000000 0000000000 22222222 33333333 44444444 55555555 66666666 77777777 88888888 99999999 12341234
11223344 12121212 123123123 123321123 147258369 159753456 1q2w3e4r 1q2w3e4r5t 1q2w3e4r5t6y 1qaz2wsx 1qaz2wsx3edc
q1w2e3r4 q1w2e3r4t5 qwertyui qwertyuiop qwerty12 qwerty123 qwerty1234 qwerty12345 qwertyu1 qazwsxedc qazwsx123
zaq12wsx zaq1zaq1 zaq1xsw2 asdfghjk asdfghjkl asdf1234 asdfasdf asd12345 zxcvbnm1 zxcvbnm123 zxcvbnmm 1234qwer
123qweasd 123qweasdzxc qweasdzxc qwe12345 abc12345 abcd1234 abcdefgh abcdefg1 abcdef12 a1b2c3d4 a1234567
aa123456 aaaaaaaa aaaaaaaaa iloveyou iloveyou1 iloveyou2 iloveu123 sunshine sunshine1 princess princess1
football football1 baseball baseball1 basketball welcome1 welcome123 welcome12 trustno1 superman superman1
batman123 spiderman michael1 jennifer jordan23 jordan123 corvette mercedes internet maverick midnight elephant
samantha chocolate butterfly starwars computer computer1 whatever whatever1 letmein1 letmein123 monkey123
dragon123 master123 shadow123 freedom1 football12 liverpool chelsea1 arsenal1 manchester barcelona realmadrid
charlie1 charlie123 michelle jessica1 ashley123 daniel123 nicole123 thomas123 hannah123 jonathan alexander
benjamin victoria cristina veronica patricia stephanie christian christine jennifer1 jasmine1 madison1 natasha1
sunflower rainbow1 blessed1 blessing iloveme1 lovelove loveyou1 lovely12 lovers12 ilovegod jesus123 jesuschrist
godisgood 1234abcd admin123 admin1234 administrator root1234 changeme changeme1 default1 secret12 secret123
letmein! welcome! password! qwerty!! 123456789a 12345678a 123456789q 12345qwert 123456qwerty qwerty123456
iloveyou! 11111111a aaaa1111 1111aaaa 7777777a 123abc123 abc123abc 1234567a 1234567q 12345678q 123456aa
987654321a zxcvbnm123 trustno11 pokemon1 pokemon123 minecraft fortnite1 roblox123 naruto123 starwars1 harrypotter
metallica nirvana1 slipknot michaeljackson playstation xbox360 nintendo1 gameover gamer123 master12 killer123
pussycat dolphins mustang1 ferrari1 porsche1 chevrolet hardcore hello123 hello1234 helloworld goodluck
football7 soccer123 soccer12 hockey12 tigger12 snoopy12 scooter1 cookie123 chicken1 summer12 summer123
winter12 spring12 autumn12 monday12 friday13 princesa tequiero teamo123 teamomucho contraseña contrasena
contraseña1 contrasena1 contrasenia 12345678910 mariposa estrella corazon1 amorcito amormio1 amoreterno
barcelona1 realmadrid1 madrid123 españa12 espana12 mexico123 argentina colombia chocolate1 futbol123 america1
familia1 jesucristo diosesamor tesoro12 angelito angelica gabriela fernanda alejandra valentina daniela1
carolina1 mercedes1 sebastian santiago1 francisco guadalupe rosario1 cristian1 mauricio leonardo
flametable flameduel flamecraft flamecraftduals
"""

# Words people make passwords of, with a count, a year or a sign after them.
WORDS = """
password passw0rd pass qwerty letmein welcome admin login master monkey dragon shadow sunshine princess football
baseball soccer hockey iloveyou love lovely jesus angel freedom summer winter spring autumn flower secret
michael jordan charlie thomas daniel andrew joshua matthew robert david james george maria maria jose juan
carlos luis pedro miguel javier antonio manuel francisco ana laura lucia sofia paula elena isabel carmen
pepito guapa guapo amor hola holamundo madrid barcelona mexico tigger ginger pepper cookie buster hunter
ranger killer batman superman pokemon mustang harley yankees cowboys eagles lakers chelsea arsenal liverpool
computer internet google facebook samsung apple iphone android windows linux hello test test123 user guest
flametable flame duel
"""
SUFFIXES = ("1", "12", "123", "1234", "12345", "123456", "!", "1!", "123!", "01", "69", "007", "2000", "2010",
            "2015", "2018", "2019", "2020", "2021", "2022", "2023", "2024", "2025", "2026", "2027")


def made() -> list[str]:
    found = {word.lower() for word in LISTED.split()}
    words = set(WORDS.split())
    found.update(word + suffix for word, suffix in product(words, SUFFIXES))
    found.update(word * 2 for word in words)
    found.update(str(d) * n for d in range(10) for n in range(MIN, 13))  # 00000000 ... 999999999999
    walks = ["1234567890", "0987654321", "qwertyuiop", "asdfghjkl", "zxcvbnm", "abcdefghijklmnopqrstuvwxyz"]
    found.update(walk[:n] for walk in walks for n in range(MIN, len(walk) + 1))
    return sorted(p for p in found if len(p) >= MIN)


def text() -> str:
    entries = made()
    return (f"# The most common passwords of {MIN} characters or more ({len(entries)}), lower case: made by "
            "scripts/common_passwords.py (edit it, not this file).\n" + "\n".join(entries) + "\n")


def main(argv: list[str]) -> int:
    if "--check" in argv:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text()
        print(f"{OUT.name}: {'up to date' if same else 'differs: run scripts/common_passwords.py'}")
        return 0 if same else 1
    OUT.write_text(text(), encoding="utf-8")
    print(f"wrote {len(made())} passwords to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
